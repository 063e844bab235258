import type { Command } from 'commander';

// Placeholder wiring; the emulator work replaces the body of this file.
export function registerEmulatorCommand(program: Command): void {
  program.command('emulator').description('Run the local CometChat API emulator.');
}
