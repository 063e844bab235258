/** What scripts/build.mjs makes (scripts/build-outputs.mjs). */
export declare const BUILD_OUTPUTS: readonly string[];
