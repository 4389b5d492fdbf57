import fs from 'node:fs';
import path from 'node:path';

/**
 * The server's import direction (decision 40). Platform folders serve every domain and so import
 * none; a domain may import another only if that one does not depend on it, directly or through
 * others. Tests are left out: they put the whole app together.
 */
export const PLATFORM_FOLDERS = ['db', 'http', 'cache', 'events', 'jobs', 'mail'];

const sourceDir = path.resolve(import.meta.dirname, '../src');
const importPattern = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.[^'"]+)['"]/g;

const isTest = (file) => file.endsWith('.test.ts');

/** The src folder a file is in, or undefined for files at the root of src (app.ts, start.ts) and outside it. */
function folderOf(file) {
  const relative = path.relative(sourceDir, file);
  const parts = relative.split(path.sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
}

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !isTest(entry.name) ? [file] : [];
  });
}

/** Which domains each domain imports, read from the files on disk (once per lint run). */
let domainGraph;
function graph() {
  if (domainGraph) return domainGraph;
  domainGraph = new Map();
  for (const file of sourceFiles(sourceDir)) {
    const from = folderOf(file);
    if (!from || PLATFORM_FOLDERS.includes(from)) continue;
    for (const [, specifier] of fs.readFileSync(file, 'utf8').matchAll(importPattern)) {
      const to = folderOf(path.resolve(path.dirname(file), specifier));
      if (!to || to === from || PLATFORM_FOLDERS.includes(to)) continue;
      if (!domainGraph.has(from)) domainGraph.set(from, new Set());
      domainGraph.get(from).add(to);
    }
  }
  return domainGraph;
}

/** A path of domain imports from `start` to `goal`, or undefined when there is none. */
function importPath(start, goal) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const domain = queue.shift();
    if (domain === goal) {
      const steps = [];
      for (let at = goal; at !== null; at = cameFrom.get(at)) steps.unshift(at);
      return steps;
    }
    for (const next of graph().get(domain) ?? []) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, domain);
        queue.push(next);
      }
    }
  }
  return undefined;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Platform folders import no domain, and domains import each other without cycles' },
    schema: [],
    messages: {
      platform: '{{from}}/ is a platform folder and imports no domain ({{to}}/): pass what it needs in, or move the code to the domain.',
      cycle:
        '{{from}}/ imports {{to}}/, which already depends on {{from}}/ ({{cycle}}): move the shared step to the domain that owns it, or pass a function in.',
    },
  },
  create(context) {
    const file = context.filename;
    const from = folderOf(file);
    if (!from || isTest(file)) return {};
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const to = folderOf(path.resolve(path.dirname(file), specifier));
      if (!to || to === from || PLATFORM_FOLDERS.includes(to)) return;
      if (PLATFORM_FOLDERS.includes(from)) {
        context.report({ node: node.source, messageId: 'platform', data: { from, to } });
        return;
      }
      const back = importPath(to, from);
      if (back) context.report({ node: node.source, messageId: 'cycle', data: { from, to, cycle: [from, ...back].join(' → ') } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default { rules: { layering: rule } };
