/** Each preset network's mark colors; other networks get a neutral badge with their initial. */
const networkColors: Record<string, string> = {
  ethereum: "#627eea",
  base: "#0052ff",
  polygon: "#8247e5",
  arbitrum: "#213147",
  devnet: "#475569",
};

export function NetworkIcon({ network, name }: { network: string; name: string }) {
  return (
    <svg viewBox="0 0 24 24" className="size-6 shrink-0" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="12" fill={networkColors[network] ?? "#64748b"} />
      <text x="12" y="16.5" textAnchor="middle" fontSize="12" fontWeight="700" fill="#ffffff">
        {name.charAt(0).toUpperCase()}
      </text>
    </svg>
  );
}
