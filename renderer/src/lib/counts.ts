/**
 * Numbers and counts as the app's English text shows them ("1 resource", "5,001 changes"): one
 * place, on Intl, so every screen groups digits and picks singular or plural the same way.
 */

const NUMBER = new Intl.NumberFormat('en-US');
const RULES = new Intl.PluralRules('en-US');

/** A number with grouped digits: 5001 -> "5,001". */
export function formatNumber(value: number): string {
  return NUMBER.format(value);
}

/**
 * A count with its noun in the right number: (1, 'file') -> "1 file", (5001, 'change') ->
 * "5,001 changes". Irregular plurals are passed as `many` ("1 entry", "2 entries").
 */
export function formatCount(count: number, noun: string, many = `${noun}s`): string {
  return `${NUMBER.format(count)} ${nounFor(count, noun, many)}`;
}

/** The noun alone, in the number `count` asks for ("file" or "files"). */
export function nounFor(count: number, noun: string, many = `${noun}s`): string {
  return RULES.select(count) === 'one' ? noun : many;
}
