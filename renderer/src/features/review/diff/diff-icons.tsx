/** The few 16px line icons the diff viewer draws (inline SVG, coloured by currentColor). */
import type { ReactNode } from 'react';

function Icon({ children, size = 16 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

/** Reveal lines above: an arrow up out of a bar. */
export function ExpandUpIcon() {
  return (
    <Icon>
      <path d="M8 12.5V4M4.5 7.5 8 4l3.5 3.5M3 1.75h10" />
    </Icon>
  );
}

/** Reveal lines below: an arrow down into a bar. */
export function ExpandDownIcon() {
  return (
    <Icon>
      <path d="M8 3.5V12M4.5 8.5 8 12l3.5-3.5M3 14.25h10" />
    </Icon>
  );
}

/** Reveal the whole gap: arrows apart. */
export function ExpandAllIcon() {
  return (
    <Icon>
      <path d="M8 1.5v4.5M5.5 3.75 8 1.5l2.5 2.25M8 14.5V10M5.5 12.25 8 14.5l2.5-2.25M3 8h10" />
    </Icon>
  );
}

/** Previous change. */
export function ChevronUpIcon() {
  return (
    <Icon>
      <path d="M4 10l4-4 4 4" />
    </Icon>
  );
}

/** Next change. */
export function ChevronDownIcon() {
  return (
    <Icon>
      <path d="M4 6l4 4 4-4" />
    </Icon>
  );
}

/** A rename or a size change: from -> to. */
export function ArrowRightIcon() {
  return (
    <Icon size={14}>
      <path d="M2.5 8h10.5M9 4l4 4-4 4" />
    </Icon>
  );
}

/** A binary file. */
export function BinaryFileIcon() {
  return (
    <Icon size={28}>
      <path d="M3.5 1.5h6l3 3v10h-9z" strokeWidth="1" />
      <path d="M9.5 1.5v3h3M5.5 8v3M7.5 8.25h1.5v2.75H7.5zM10.5 8v3" strokeWidth="1" />
    </Icon>
  );
}

/** The end of a file without a newline (a circled minus, as GitHub shows it). */
export function NoNewlineIcon() {
  return (
    <Icon size={12}>
      <circle cx="8" cy="8" r="6" />
      <path d="M5 8h6" />
    </Icon>
  );
}

/** Find in the diff: a magnifier. */
export function SearchIcon() {
  return (
    <Icon>
      <circle cx="7" cy="7" r="4.25" />
      <path d="M10.25 10.25 13.5 13.5" />
    </Icon>
  );
}

/** Whitespace changes: a space bar under a dot pair. */
export function WhitespaceIcon() {
  return (
    <Icon>
      <path d="M2.5 9v3.25h11V9" />
      <circle cx="5.5" cy="5" r="0.6" fill="currentColor" />
      <circle cx="8" cy="5" r="0.6" fill="currentColor" />
      <circle cx="10.5" cy="5" r="0.6" fill="currentColor" />
    </Icon>
  );
}

/** The whole file: a page with arrows apart. */
export function WholeFileIcon() {
  return (
    <Icon>
      <path d="M3.5 1.75h9M3.5 14.25h9M8 4v8M5.75 6 8 3.75 10.25 6M5.75 10 8 12.25 10.25 10" />
    </Icon>
  );
}

/** Close. */
export function CloseIcon() {
  return (
    <Icon size={14}>
      <path d="M4 4l8 8M12 4l-8 8" />
    </Icon>
  );
}

/** A warning triangle. */
export function WarningIcon() {
  return (
    <Icon>
      <path d="M8 1.75 14.5 13.5h-13z" />
      <path d="M8 6v3.5M8 11.6v.1" />
    </Icon>
  );
}

/** Line endings: a return arrow. */
export function LineEndIcon() {
  return (
    <Icon>
      <path d="M13 3v4.5a2 2 0 0 1-2 2H3.5M6.5 6.5l-3 3 3 3" />
    </Icon>
  );
}

/** The unified layout: one column of lines. */
export function UnifiedIcon() {
  return (
    <Icon>
      <rect x="2.25" y="2.25" width="11.5" height="11.5" rx="1.5" />
      <path d="M5 5.75h6M5 8h6M5 10.25h4" />
    </Icon>
  );
}

/** The split layout: two columns side by side. */
export function SplitIcon() {
  return (
    <Icon>
      <rect x="2.25" y="2.25" width="11.5" height="11.5" rx="1.5" />
      <path d="M8 2.25v11.5M4.25 5.75h2M4.25 8h2M9.75 5.75h2M9.75 8h2" />
    </Icon>
  );
}

/** More: three dots, for options that do not fit. */
export function MoreIcon() {
  return (
    <Icon>
      <path d="M3.5 8h.01M8 8h.01M12.5 8h.01" strokeWidth="2.25" />
    </Icon>
  );
}
