/** Which files the tool import accepts, and the name an exported tool is saved under. */

const TOOL_FILE = /\.(ya?ml|json)$/i;

/** True for names the tool importer reads (YAML or JSON). */
export function isToolFileName(name: string): boolean {
  return TOOL_FILE.test(name);
}
