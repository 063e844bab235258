// Counted nouns in messages: "1 resource", "2 resources", "1 change was", "3 changes were".

/** `n` and the right form: countOf(1, 'resource') is "1 resource"; the plural defaults to +s. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
