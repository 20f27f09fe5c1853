import { scaleLinear, scalePoint } from "d3-scale";
import { line } from "d3-shape";
import type { DayFigures } from "~/server/analytics/index.server.ts";

const WIDTH = 720;
const HEIGHT = 240;
const MARGIN = { top: 28, right: 12, bottom: 24, left: 36 };

const SERIES = [
  { key: "calls", label: "Calls", color: "#1e40af", dash: undefined },
  { key: "leads", label: "Leads", color: "#166534", dash: "6 4" },
] as const;

/**
 * Calls and leads per day as two lines on one scale: drawn by the server, so it reads with JavaScript off. Screen
 * readers get its title and summary here, and the same figures in the table that follows it.
 */
export function DailyChart({ days, title, summary }: { days: DayFigures[]; title: string; summary: string }) {
  const highest = Math.max(1, ...days.flatMap((day) => SERIES.map((series) => day[series.key])));
  const x = scalePoint<string>()
    .domain(days.map((day) => day.day))
    .range([MARGIN.left, WIDTH - MARGIN.right]);
  const y = scaleLinear()
    .domain([0, highest])
    .nice()
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const ticks = y.ticks(4);
  return (
    <svg
      role="img"
      aria-labelledby="daily-chart-title daily-chart-desc"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="mt-3 h-auto w-full max-w-3xl"
    >
      <title id="daily-chart-title">{title}</title>
      <desc id="daily-chart-desc">{summary}</desc>
      {ticks.map((tick) => (
        <g key={tick}>
          <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(tick)} y2={y(tick)} stroke="#e2e8f0" />
          <text x={MARGIN.left - 6} y={y(tick) + 4} fontSize={12} fill="#334155" textAnchor="end">
            {tick.toLocaleString("en-US")}
          </text>
        </g>
      ))}
      {SERIES.map((series, index) => {
        const path = line<DayFigures>()
          .x((day) => x(day.day) ?? MARGIN.left)
          .y((day) => y(day[series.key]))(days);
        return (
          <g key={series.key}>
            <path d={path ?? ""} fill="none" stroke={series.color} strokeWidth={2} strokeDasharray={series.dash} />
            <line
              x1={MARGIN.left + index * 110}
              x2={MARGIN.left + index * 110 + 24}
              y1={12}
              y2={12}
              stroke={series.color}
              strokeWidth={2}
              strokeDasharray={series.dash}
            />
            <text x={MARGIN.left + index * 110 + 30} y={16} fontSize={13} fontWeight={600} fill="#0f172a">
              {series.label}
            </text>
          </g>
        );
      })}
      <text x={MARGIN.left} y={HEIGHT - 5} fontSize={12} fill="#334155">
        {days[0]?.day}
      </text>
      <text x={WIDTH - MARGIN.right} y={HEIGHT - 5} fontSize={12} fill="#334155" textAnchor="end">
        {days.at(-1)?.day}
      </text>
    </svg>
  );
}
