import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { serverDir } from '../src/server-dir.ts';

const eslint = new ESLint({ cwd: path.join(serverDir, '../..') });

/** The layering messages the project's lint configuration gives a new file at `file` (under src/). */
async function layeringProblems(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(serverDir, 'src', file) });
  return result!.messages.filter((message) => message.ruleId === 'server/layering').map((message) => message.message);
}

describe('the server layering lint rule', () => {
  it('refuses a platform folder importing a domain', async () => {
    const problems = await layeringProblems('cache/example.ts', "export { findUserById } from '../users/user-repository.ts';\n");
    expect(problems).toEqual([expect.stringContaining('cache/ is a platform folder and imports no domain (users/)')]);
  });

  it('refuses an import that closes a cycle between domains, naming the way back', async () => {
    // sales imports products (a sale changes a listing's state), so products may not import sales.
    const problems = await layeringProblems('products/example.ts', "export { sellToBooking } from '../sales/sale-transitions.ts';\n");
    expect(problems).toEqual([expect.stringMatching(/^products\/ imports sales\/, which already depends on products\/ \(products → sales → .*products\)/)]);
  });

  it('lets a domain import one below it, and tests put any parts together', async () => {
    expect(await layeringProblems('products/example.ts', "export { findCategoryById } from '../categories/category-repository.ts';\n")).toEqual([]);
    expect(await layeringProblems('cache/example.test.ts', "export { findUserById } from '../users/user-repository.ts';\n")).toEqual([]);
  });
});
