import { centsToDecimal } from "~/lib/money.ts";
import { wallClock } from "~/lib/operator-time.ts";
import { csvCell } from "../leads/index.server.ts";
import type { AdPlatform, ConversionRow } from "./conversion-rows.server.ts";

/**
 * The ad platforms' offline conversion import files. Google Ads: a `Parameters:TimeZone=` line naming the zone of
 * the times, then `Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency` and the
 * GBRAID and WBRAID columns, one click id a row. Microsoft Advertising: the same with its `Microsoft Click Id` and
 * `Conversion Currency Code`. Times are `yyyy-MM-dd HH:mm:ss` in that zone. Cells are formula-safe like the other
 * exports, and lines end in CRLF.
 */

interface FileSettings {
  /** OPERATOR_TIME_ZONE: the zone of the file's times. */
  timeZone: string;
  /** CONVERSION_CURRENCY. */
  currency: string;
}

/** An instant as `yyyy-MM-dd HH:mm:ss` on the wall clock of a zone. */
export function wallClockTime(instant: Date, timeZone: string): string {
  const clock = wallClock(instant, timeZone);
  const two = (value: number) => String(value).padStart(2, "0");
  return `${clock.year}-${two(clock.month)}-${two(clock.day)} ${two(clock.hour)}:${two(clock.minute)}:${two(clock.second)}`;
}

/** A file lists its conversions oldest first (then by key, so that the same conversions make the same file). */
const oldestFirst = (rows: ConversionRow[]) =>
  rows.toSorted((a, b) => a.time.getTime() - b.time.getTime() || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

const lines = (rows: string[][]) => rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";

export function googleAdsCsv(rows: ConversionRow[], settings: FileSettings): string {
  return lines([
    [`Parameters:TimeZone=${settings.timeZone}`],
    [
      "Google Click ID",
      "Conversion Name",
      "Conversion Time",
      "Conversion Value",
      "Conversion Currency",
      "GBRAID",
      "WBRAID",
    ],
    ...oldestFirst(rows).map((row) => [
      row.clickIdKind === "gclid" ? row.clickId : "",
      row.name,
      wallClockTime(row.time, settings.timeZone),
      centsToDecimal(row.valueCents),
      settings.currency,
      row.clickIdKind === "gbraid" ? row.clickId : "",
      row.clickIdKind === "wbraid" ? row.clickId : "",
    ]),
  ]);
}

export function microsoftAdsCsv(rows: ConversionRow[], settings: FileSettings): string {
  return lines([
    [`Parameters:TimeZone=${settings.timeZone}`],
    ["Microsoft Click Id", "Conversion Name", "Conversion Time", "Conversion Value", "Conversion Currency Code"],
    ...oldestFirst(rows).map((row) => [
      row.clickId,
      row.name,
      wallClockTime(row.time, settings.timeZone),
      centsToDecimal(row.valueCents),
      settings.currency,
    ]),
  ]);
}

export const conversionFile: Record<AdPlatform, (rows: ConversionRow[], settings: FileSettings) => string> = {
  google: googleAdsCsv,
  microsoft: microsoftAdsCsv,
};
