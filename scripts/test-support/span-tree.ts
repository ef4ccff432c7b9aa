type TreeSpan = { spanId: string; parentSpanId?: string | null };

/** The spans above `span` among `spans`, nearest first, as far as its parents were exported. */
export function ancestors<T extends TreeSpan>(span: T, spans: T[]): T[] {
  const found: T[] = [];
  for (let parent = span.parentSpanId; parent; ) {
    const next = spans.find((candidate) => candidate.spanId === parent);
    if (!next) break;
    found.push(next);
    parent = next.parentSpanId;
  }
  return found;
}
