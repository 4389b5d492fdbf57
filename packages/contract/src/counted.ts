/** "1 wish", "3 wishes": a count with its noun in the right number. */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
