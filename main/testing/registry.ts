/** A real registry over a temp SQLite file, for service and resolution tests. */
import path from 'node:path';
import { openBindery, type Bindery } from '../services/bindery.ts';
import { tempDir } from './fixtures.ts';

/** Opens Bindery over a fresh temp data directory. */
export function freshBindery(): Bindery {
  const bindery = openBindery(path.join(tempDir('bindery-data-'), 'data'));
  return bindery;
}
