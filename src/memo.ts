// A per-process memo of a pure function of a string, for rules a giant provider's schema asks of the same few thousand
// strings many times over; cleared whole when it reaches its bound, so no input can grow it without end.

/** `fn` with its answers kept, at most `bound` of them at once. */
export function memoizeString<T>(fn: (key: string) => T, bound: number): (key: string) => T {
  const answers = new Map<string, T>();
  return (key) => {
    let known = answers.get(key);
    if (known === undefined) {
      if (answers.size >= bound) answers.clear();
      known = fn(key);
      answers.set(key, known);
    }
    return known;
  };
}
