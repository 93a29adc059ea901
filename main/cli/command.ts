/** The shape of a command module and helpers shared by them. */
import type { Command } from 'commander';
import { BinderyError } from '../../shared/errors.ts';
import { SANDBOX_STRATEGIES, type SandboxStrategy } from '../../shared/model.ts';
import type { CliContext } from './context.ts';

/** Adds one command group to the program. */
export type CommandModule = (program: Command, context: CliContext) => void;

/** Parses a `--strategy` value, as a usage error when unknown. */
export function parseStrategy(value: string | undefined): SandboxStrategy | undefined {
  if (value === undefined) return undefined;
  if ((SANDBOX_STRATEGIES as readonly string[]).includes(value)) return value as SandboxStrategy;
  throw new BinderyError('usage', `--strategy must be one of ${SANDBOX_STRATEGIES.join(', ')}, not "${value}"`);
}

/** Splits a comma-separated list option. */
export function parseList(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',').map((part) => part.trim()).filter(Boolean);
}

/** Collects a repeatable option into an array. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
