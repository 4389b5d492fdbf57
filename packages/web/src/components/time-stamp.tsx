import { formatDateTime } from '../lib/format.ts';

/** When something happened (a message, a notification), in the reader's time zone: "Nov 23, 2026, 3:19 PM". */
export function TimeStamp({ iso, className = '' }: { iso: string; className?: string }) {
  return (
    <time dateTime={iso} className={`text-xs font-normal opacity-80 ${className}`}>
      {formatDateTime(iso)}
    </time>
  );
}
