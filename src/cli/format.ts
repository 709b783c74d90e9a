// Human-readable output: aligned plain-text tables (no colours, so output pastes into tickets).

export function table(headers: string[], rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (c === null ? '-' : String(c))))]
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)))
  return (
    cells
      .map((r) =>
        r
          .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  )
}

export function lines(...text: string[]): string {
  return `${text.join('\n')}\n`
}
