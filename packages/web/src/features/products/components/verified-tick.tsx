/** The tick after a seller's name: highlighted in blue for a verified seller, grey otherwise. */
export function VerifiedTick({ verified }: { verified: boolean }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      className={`inline h-5 w-5 ${verified ? 'text-blue-600' : 'text-gray-500'}`}
      fill="currentColor"
      role="img"
      aria-label={verified ? 'Verified seller' : 'Seller not verified'}
      data-verified={verified}
    >
      <path d="M12 1.5l2.6 2 3.3-.2.9 3.2 2.7 1.9-1.2 3.1 1.2 3.1-2.7 1.9-.9 3.2-3.3-.2-2.6 2-2.6-2-3.3.2-.9-3.2-2.7-1.9 1.2-3.1-1.2-3.1 2.7-1.9.9-3.2 3.3.2z" />
      <path d="M8 12.3l2.6 2.6L16.2 9.3" fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
