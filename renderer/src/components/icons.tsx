/**
 * The app's icons as inline SVG (16px, stroke-based, currentColor), so they follow the theme and
 * need no asset pipeline.
 */
import type { ReactElement } from 'react';

const PATHS = {
  box: 'M2.5 4.5 8 2l5.5 2.5v7L8 14l-5.5-2.5zM2.5 4.5 8 7l5.5-2.5M8 7v7',
  folder: 'M2 4.5A1.5 1.5 0 0 1 3.5 3h3l1.5 1.5h4.5A1.5 1.5 0 0 1 14 6v5.5a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 2 11.5z',
  layers: 'M8 2 14 5 8 8 2 5zM2 8l6 3 6-3M2 11l6 3 6-3',
  tool: 'M10.5 2.5a3 3 0 0 0-2.9 3.8L2.5 11.4a1.4 1.4 0 0 0 2 2l5.1-5.1a3 3 0 0 0 3.8-2.9l-1.7 1.1-1.9-.6-.6-1.9z',
  project: 'M2.5 3.5h4v4h-4zM9.5 3.5h4v4h-4zM2.5 9.5h4v4h-4zM9.5 9.5h4v4h-4z',
  plan: 'M3 3.5h10M3 8h10M3 12.5h6',
  activity: 'M1.5 8h3l2-5 3 10 2-5h3',
  plus: 'M8 3v10M3 8h10',
  search: 'M7 12A5 5 0 1 0 7 2a5 5 0 0 0 0 10zM10.5 10.5 14 14',
  trash: 'M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.6 8.5h5.8l.6-8.5',
  edit: 'M10.5 2.5l3 3-7.5 7.5H3v-3z',
  close: 'M4 4l8 8M12 4l-8 8',
  check: 'M3 8.5 6.5 12 13 4.5',
  alert: 'M8 2 14.5 13.5h-13zM8 6.5v3.5M8 11.8v.2',
  info: 'M8 14.5A6.5 6.5 0 1 0 8 1.5a6.5 6.5 0 0 0 0 13zM8 7.5V11M8 5v.2',
  sortAsc: 'M8 3.5v9M4.5 7 8 3.5 11.5 7',
  sortDesc: 'M8 3.5v9M4.5 9 8 12.5 11.5 9',
  sortNone: 'M5 6.5 8 3.5l3 3M5 9.5l3 3 3-3',
  branch: 'M5 2.5v8M5 10.5a2 2 0 1 0 0 3.5 2 2 0 0 0 0-3.5zM11 6a2 2 0 1 0 0-3.5A2 2 0 0 0 11 6zM11 6c0 3-6 2-6 4.5',
  link: 'M6.5 9.5l3-3M7 4.5l1-1a2.8 2.8 0 0 1 4 4l-1 1M9 11.5l-1 1a2.8 2.8 0 0 1-4-4l1-1',
  unlink: 'M7 4.5l1-1a2.8 2.8 0 0 1 4 4l-1 1M9 11.5l-1 1a2.8 2.8 0 0 1-4-4l1-1M2.5 2.5l11 11',
  upload: 'M8 10.5V2.5M5 5.5l3-3 3 3M2.5 10.5v2.5h11v-2.5',
  download: 'M8 2.5v8M5 7.5l3 3 3-3M2.5 10.5v2.5h11v-2.5',
  copy: 'M5.5 5.5h8v8h-8zM10.5 5.5v-3h-8v8h3',
  file: 'M4 1.5h5l3.5 3.5v9.5H4zM9 1.5V5h3.5',
  lock: 'M4 7.5h8v6H4zM5.5 7.5V5.5a2.5 2.5 0 0 1 5 0v2',
  database: 'M2.5 4c0-1.1 2.5-2 5.5-2s5.5.9 5.5 2-2.5 2-5.5 2-5.5-.9-5.5-2zM2.5 4v8c0 1.1 2.5 2 5.5 2s5.5-.9 5.5-2V4M2.5 8c0 1.1 2.5 2 5.5 2s5.5-.9 5.5-2',
  refresh: 'M13 3v3.5H9.5M3 13V9.5h3.5M12.5 6.5A5 5 0 0 0 4 4.5M3.5 9.5A5 5 0 0 0 12 11.5',
} as const;

/** Names of the available icons. */
export type IconName = keyof typeof PATHS;

/** One icon; decorative unless `label` is given. */
export function Icon({ name, size = 16, label }: { name: IconName; size?: number; label?: string }): ReactElement {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.4}
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
