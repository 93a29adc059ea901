/** A change list's version as every process writes it: `<count of changes>-<16 hex digits>`. */
export const VERSION_PATTERN = /^(\d+)-([0-9a-f]{16})$/;
