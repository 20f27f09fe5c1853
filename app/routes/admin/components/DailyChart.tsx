import type { DayFigures } from "~/server/analytics/index.server.ts";

const WIDTH = 720;
const ROW_HEIGHT = 72;
const LABEL_HEIGHT = 18;
const AXIS_HEIGHT = 20;

const SERIES = [
  { key: "views", label: "Page views", color: "#475569" },
  { key: "calls", label: "Calls", color: "#1e40af" },
  { key: "leads", label: "Leads", color: "#166534" },
] as const;

/**
 * Page views, calls and leads per day as bars, one row per figure, each scaled to its own highest day: drawn by
 * the server, so it reads with JavaScript off. Screen readers get its title and summary here, and the same
 * figures in the table that follows it.
 */
export function DailyChart({ days, title, summary }: { days: DayFigures[]; title: string; summary: string }) {
  const height = SERIES.length * (ROW_HEIGHT + LABEL_HEIGHT) + AXIS_HEIGHT;
  const slot = WIDTH / Math.max(days.length, 1);
  const barWidth = Math.max(1, slot * 0.7);
  return (
    <svg
      role="img"
      aria-labelledby="daily-chart-title daily-chart-desc"
      viewBox={`0 0 ${WIDTH} ${height}`}
      className="mt-3 h-auto w-full max-w-3xl"
    >
      <title id="daily-chart-title">{title}</title>
      <desc id="daily-chart-desc">{summary}</desc>
      {SERIES.map((series, row) => {
        const top = row * (ROW_HEIGHT + LABEL_HEIGHT);
        const max = Math.max(...days.map((day) => day[series.key]), 0);
        return (
          <g key={series.key}>
            <text x={0} y={top + 13} fontSize={13} fontWeight={600} fill="#0f172a">
              {`${series.label} (highest day: ${max.toLocaleString("en-US")})`}
            </text>
            <line
              x1={0}
              x2={WIDTH}
              y1={top + LABEL_HEIGHT + ROW_HEIGHT}
              y2={top + LABEL_HEIGHT + ROW_HEIGHT}
              stroke="#94a3b8"
            />
            {days.map((day, index) => {
              const barHeight = max === 0 ? 0 : (day[series.key] / max) * (ROW_HEIGHT - 4);
              return (
                <rect
                  key={day.day}
                  x={index * slot + (slot - barWidth) / 2}
                  y={top + LABEL_HEIGHT + ROW_HEIGHT - barHeight}
                  width={barWidth}
                  height={barHeight}
                  fill={series.color}
                />
              );
            })}
          </g>
        );
      })}
      <text x={0} y={height - 5} fontSize={12} fill="#334155">
        {days[0]?.day}
      </text>
      <text x={WIDTH} y={height - 5} fontSize={12} fill="#334155" textAnchor="end">
        {days.at(-1)?.day}
      </text>
    </svg>
  );
}
