/** The tool methods of the API, including a validate-only import for the editor. */
import type { ApiHandlers } from '../../../shared/contract.ts';
import { ValidationError } from '../../../shared/errors.ts';
import type { ToolFileIssue, ToolValidation } from '../../../shared/dto.ts';
import type { ApiContext } from './context.ts';

type ToolMethods = 'listTools' | 'showTool' | 'importTools' | 'validateTools' | 'exportTool' | 'removeTool';

/** Tools: list, show, import, validate (no write), export, remove. */
export function toolsApi(context: ApiContext): Pick<ApiHandlers, ToolMethods> {
  const { registry } = context.bindery;
  return {
    listTools: () => registry.listTools(),
    showTool: ({ ref }) => registry.showTool(ref),
    importTools: ({ text, fileName, replace }) => registry.importTools(text, fileName, { replace }),
    validateTools: async ({ text, fileName, replace }): Promise<ToolValidation> => {
      try {
        return { ok: true, tools: await registry.checkTools(text, fileName, { replace }), issues: [] };
      } catch (error) {
        if (error instanceof ValidationError) return { ok: false, tools: [], issues: issuesOf(error, fileName) };
        throw error;
      }
    },
    exportTool: async ({ ref }) => {
      const tool = registry.showTool(ref);
      return { name: tool.name, fileName: `${tool.name}.yaml`, text: await registry.exportTool(tool.id) };
    },
    removeTool: ({ ref }) => registry.removeTool(ref),
  };
}

function issuesOf(error: ValidationError, file: string): ToolFileIssue[] {
  const issues = (error.details as { issues?: Array<Partial<ToolFileIssue>> } | undefined)?.issues;
  if (!issues) return [{ file, line: null, column: null, field: '', message: error.message }];
  return issues.map((issue) => ({
    file: issue.file ?? file,
    line: issue.line ?? null,
    column: issue.column ?? null,
    field: issue.field ?? '',
    message: issue.message ?? error.message,
  }));
}
