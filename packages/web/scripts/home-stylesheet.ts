import path from 'node:path';
import { Scanner } from '@tailwindcss/oxide';
import { transform, type Selector, type SelectorComponent } from 'lightningcss';

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
 * classes Home can carry are Tailwind's candidates in the source files its render module is built
 * from, whatever the data. Since the result is the full stylesheet's rules in their order, an
 * element of Home gets the same declarations from either, and the two loaded together (once the
 * app starts and brings the full one) cascade as the full one alone: later copies of the same rules.
 */
export function homeStylesheet(fullCss: string, homeSourceFiles: string[]): string {
  const scanner = new Scanner({});
  const candidates = scanner.scanFiles(homeSourceFiles.map((file) => ({ file, extension: path.extname(file).slice(1) })));
  const classes = new Set(candidates);
  const { code } = transform({
    filename: 'home.css',
    code: Buffer.from(fullCss),
    minify: true,
    visitor: {
      Rule: {
        style(rule) {
          const selectors = rule.value.selectors.filter((selector) => canMatch(selector, classes));
          if (selectors.length === 0) return [];
          // A rule left whole is not handed back: it stays exactly as it was.
          if (selectors.length === rule.value.selectors.length) return undefined;
          return { ...rule, value: { ...rule.value, selectors } };
        },
      },
    },
  });
  return code.toString();
}
