/**
 * The resources table's filter: a type choice plus free text where every word must match
 * somewhere (name, type, location, description, linking projects). Pure, so 10,000 rows filter
 * in one pass and the rules are unit-tested.
 */
import type { ResourceListItem } from '../../../shared/dto.ts';

/** What the user typed and picked above the table. */
export interface ResourceFilter {
  text: string;
  /** A type name, or '' for every type. */
  typeName: string;
}

/** A predicate for the filter, or null when the filter lets everything through. */
export function resourceMatcher(filter: ResourceFilter): ((item: ResourceListItem) => boolean) | null {
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0 && !filter.typeName) return null;
  return (item) => {
    if (filter.typeName && item.typeName !== filter.typeName) return false;
    if (words.length === 0) return true;
    const haystack = searchText(item);
    return words.every((word) => haystack.includes(word));
  };
}

/** The rows that pass the filter, in their original order. */
export function filterResources(items: readonly ResourceListItem[], filter: ResourceFilter): ResourceListItem[] {
  const matches = resourceMatcher(filter);
  return matches ? items.filter(matches) : (items as ResourceListItem[]);
}

// Rows are immutable (a refresh brings new objects), so each row's text is built once, not on
// every keystroke.
const texts = new WeakMap<ResourceListItem, string>();

function searchText(item: ResourceListItem): string {
  let text = texts.get(item);
  if (text === undefined) {
    text = [item.name, item.typeName, item.location, item.description, item.sandboxStrategy ?? '', ...item.projects].join('\n').toLowerCase();
    texts.set(item, text);
  }
  return text;
}

/** Type names that occur in the list with their counts, for the type filter menu. */
export function typeCounts(items: readonly ResourceListItem[]): Array<{ typeName: string; count: number }> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.typeName, (counts.get(item.typeName) ?? 0) + 1);
  return [...counts.entries()].map(([typeName, count]) => ({ typeName, count })).sort((a, b) => a.typeName.localeCompare(b.typeName));
}
