/**
 * Spelling correction against the catalogue's vocabulary (decision 12): the edit distance a
 * person's slip makes, and the words one slip away from a word.
 */

/**
 * The optimal string alignment distance: how many insertions, deletions, substitutions and swaps
 * of two neighbouring letters turn `a` into `b`, no letter edited twice. A swap counts as one
 * edit, as it is one slip of the fingers ("chiar"), where Levenshtein counts two.
 */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  // Three rows of the distance table: two back (for swaps), the previous and the current.
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const substitution = previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1);
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) best = Math.min(best, beforePrevious[j - 2]! + 1);
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[y.length]!;
}

/** The letters a slip may add or put in place of another: those of folded (unaccented) words, and the word's own. */
const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Every word one edit away from `word` (a letter left out, added, changed, or two neighbours swapped). */
export function wordsOneEditAway(word: string): string[] {
  const letters = [...word];
  const pool = [...new Set([...alphabet, ...letters])];
  const variants = new Set<string>();
  for (let i = 0; i <= letters.length; i++) {
    const head = letters.slice(0, i).join('');
    const tail = letters.slice(i).join('');
    for (const letter of pool) variants.add(head + letter + tail);
    if (i === letters.length) break;
    const rest = letters.slice(i + 1).join('');
    variants.add(head + rest);
    for (const letter of pool) variants.add(head + letter + rest);
    if (i + 1 < letters.length) variants.add(head + letters[i + 1] + letters[i] + letters.slice(i + 2).join(''));
  }
  variants.delete(word);
  return [...variants];
}

/** How far a word may be from the one meant: one slip in a short word, two in a longer one. */
export const maxEditsFor = (word: string) => ([...word].length <= 4 ? 1 : 2);

export interface Candidate {
  term: string;
  /** The share of listings whose document holds the term, as far as PostgreSQL's statistics know (0 when they do not). */
  frequency: number;
}

/**
 * The word a person most likely meant by `word`: among the candidates within `maxEditsFor`
 * edits, the fewest edits away, then the most common in the catalogue, then the first
 * alphabetically (so the choice is stable). Undefined when none is close enough.
 */
export function closestTerm(word: string, candidates: Candidate[]): string | undefined {
  const limit = maxEditsFor(word);
  let best: (Candidate & { distance: number }) | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate.term);
    if (distance > limit) continue;
    if (
      !best ||
      distance < best.distance ||
      (distance === best.distance &&
        (candidate.frequency > best.frequency || (candidate.frequency === best.frequency && candidate.term < best.term)))
    ) {
      best = { ...candidate, distance };
    }
  }
  return best?.term;
}
