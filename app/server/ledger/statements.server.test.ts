import { describe, expect, test } from "vitest";
import { csvCell } from "../leads/index.server.ts";
import { statementRows } from "./statements.server.ts";

describe("a statement's rows, read back from its CSV", () => {
  test("are the rows it was written from, every cell in its column, an empty first one too", () => {
    const rows = [
      ["Statement", "7"],
      ["Partner", "Lee Park (Park Drains)"],
      [],
      ["Date", "Entry", "Details", "Amount"],
      ["", "Opening balance", "", "0.00"],
      ["Oct 3, 2026", "Charge", 'Drain Services · "main" line', "45.50"],
      ["Oct 17, 2026", "Credit", "=Lead returned", "-45.50"],
      ["", "Closing balance", "", "0.00"],
    ];
    const csv = rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
    expect(statementRows(csv)).toEqual(rows);
  });
});
