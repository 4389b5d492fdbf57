import fs from 'node:fs';
import path from 'node:path';
import { Scanner } from '@tailwindcss/oxide';
import { transform, type Selector, type SelectorComponent } from 'lightningcss';
import ts from 'typescript';

/**
 * The text a module can put into the page's class attributes: its string and template literals.
 * Words of comments, names and prose (JSX text) never become a class, and would bring in rules such
 * as daisyUI's "modal" or "select" for nothing. SVG files are markup: read whole.
 */
function literalText(file: string): string {
  const source = fs.readFileSync(file, 'utf8');
  if (!/\.[cm]?[jt]sx?$/.test(file)) return source;
  const parsed = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const literals: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) literals.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(parsed);
  return literals.join('\n');
}

/**
 * Can this selector match an element whose classes are all among `classes`? A class required
 * outside any functional pseudo-class must be one of them; of an `:is()`, `:where()` or `:has()`,
 * at least one argument must be able to match. Anything else (`:not()`, attributes, elements) is
 * assumed able to match, so the answer errs towards keeping a rule.
 */
function canMatch(selector: Selector, classes: ReadonlySet<string>): boolean {
  return selector.every((component: SelectorComponent) => {
    if (component.type === 'class') return classes.has(component.name);
    if (component.type === 'pseudo-class' && (component.kind === 'is' || component.kind === 'where' || component.kind === 'has')) {
      return component.selectors.some((inner) => canMatch(inner, classes));
    }
    return true;
  });
}

/**
 * Home's own stylesheet (decision 26): the app's built stylesheet with every style rule that no
 * element of Home can match left out, the rest in the same order and in the same layers. The
 * classes Home can carry are Tailwind's candidates in the string literals of the source files its
 * render module is built from, whatever the data. Since the result is the full stylesheet's rules in their order, an
 * element of Home gets the same declarations from either, and the two loaded together (once the
 * app starts and brings the full one) cascade as the full one alone: later copies of the same rules.
 */
export function homeStylesheet(fullCss: string, homeSourceFiles: string[]): string {
  // Given by content: a scanner without sources skips files it was given by name.
  const candidates = new Scanner({}).scanFiles(homeSourceFiles.map((file) => ({ content: literalText(file), extension: path.extname(file).slice(1) })));
  if (candidates.length === 0) throw new Error("No class names found in Home's source files");
  const classes = new Set(candidates);
  const { code } = transform({
    filename: 'home.css',
    code: Buffer.from(fullCss),
    minify: true,
    visitor: {
      Rule: {
        style(rule) {
          // A rule is kept whole or left out: rewriting a selector list would go through
          // lightningcss's serialisation of selectors, which does not read back some of its own.
          return rule.value.selectors.some((selector) => canMatch(selector, classes)) ? undefined : [];
        },
      },
    },
  });
  return code.toString();
}
