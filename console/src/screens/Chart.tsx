// The console's bar charts (Recharts through @mantine/charts): the console's largest dependency,
// loaded on its own so that the figures are asked for while it loads. `onDrawn` tells the screen the
// chart is on the page (what the end-to-end test's render time waits for). `horizontal`: a bar per
// row, its name on the left (long names, such as the loss ratios' groups).
import '@mantine/charts/styles.css'
import { BarChart, type BarChartSeries } from '@mantine/charts'
import { useEffect } from 'react'

export type ChartProps = {
  h: number
  data: Array<Record<string, number | string>>
  dataKey: string
  series: BarChartSeries[]
  stacked?: boolean
  legend?: boolean
  horizontal?: boolean
  valueFormatter?: (value: number) => string
  onDrawn?: () => void
}

export default function Chart({
  h,
  data,
  dataKey,
  series,
  stacked,
  legend,
  horizontal,
  valueFormatter,
  onDrawn,
}: ChartProps) {
  useEffect(() => onDrawn?.(), [onDrawn])
  return (
    <BarChart
      h={h}
      data={data}
      dataKey={dataKey}
      type={stacked ? 'stacked' : 'default'}
      withLegend={legend}
      valueFormatter={valueFormatter}
      series={series}
      tickLine={horizontal ? 'x' : 'y'}
      {...(horizontal ? { orientation: 'vertical' as const, yAxisProps: { width: 200 } } : {})}
    />
  )
}
