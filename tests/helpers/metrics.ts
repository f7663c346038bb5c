/** The cart-view cache's counters (`checkout_cart_view_cache_total{event="hit"}` …) in a /metrics text, by event. */
export function cartViewCounts(metricsText: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const match of metricsText.matchAll(/^checkout_cart_view_cache_total\{event="(\w+)"\} (\d+)/gm)) {
    counts[match[1] as string] = Number(match[2]);
  }
  return counts;
}
