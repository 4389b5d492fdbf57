import { useEffect, useState } from 'react';

/** The value once it has stopped changing for `pauseMs`: what is typed, asked for when typing pauses. */
export function useSettled<T>(value: T, pauseMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), pauseMs);
    return () => clearTimeout(timer);
  }, [value, pauseMs]);
  return settled;
}
