// `-e NAME` naming an environment the manifest does not define is a mistake in the command line,
// not in the manifest: one usage-style line that names the flag, with a "did you mean" when one is
// close (issue 40, 3.5). Every path that reads -e (one environment, several, the state commands) says it so.
import { UserError } from './errors.js';
import { closest, didYouMean } from './suggest.js';

/** `-e prod: unknown environment "prod"; the manifest defines dev, staging`. `where` names what defines them. */
export function unknownEnvironmentError(requested: readonly string[], defined: readonly string[], where = 'the manifest'): UserError {
  const flags = requested.map((name) => `-e ${name}`).join(', ');
  const list = defined.length === 0 ? 'no environments' : defined.join(', ');
  if (requested.length === 1) {
    const name = requested[0] ?? '';
    return new UserError('environment_invalid', `${flags}: unknown environment "${name}"; ${where} defines ${list}${didYouMean(name, defined)}`, { environments: [...defined] });
  }
  const which = requested.map((name) => {
    const hint = closest(name, defined);
    return hint === undefined ? `"${name}"` : `"${name}" (did you mean "${hint}"?)`;
  });
  return new UserError('environment_invalid', `${flags}: unknown environments ${which.join(', ')}; ${where} defines ${list}`, { environments: [...defined] });
}
