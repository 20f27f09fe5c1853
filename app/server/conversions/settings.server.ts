import { sql } from "drizzle-orm";
import { ACTION_NAME_MAX_LENGTH } from "~/lib/console-limits.ts";
import { AMOUNT_MAX_LENGTH, parseAmount } from "~/lib/money.ts";
import { executeRows, type Database } from "../db/index.server.ts";
import {
  conversionActionKeys,
  defaultConversionActions,
  type ConversionAction,
  type ConversionActionKey,
} from "./action-defaults.server.ts";
import { conversionActions } from "./schema.server.ts";

/** The conversion actions as the operator set them on /admin/conversions, or their defaults. */

export type ConversionActions = Record<ConversionActionKey, ConversionAction>;

export async function readConversionActions(db: Database): Promise<ConversionActions> {
  const rows = await db.select().from(conversionActions);
  const actions = { ...defaultConversionActions };
  for (const row of rows) {
    const key = conversionActionKeys.find((action) => action === row.action);
    if (key) actions[key] = { ...row, action: key };
  }
  return actions;
}

type ActionErrors = Partial<Record<`${ConversionActionKey}-${"name" | "value"}`, string>>;

type ActionsValidation = { ok: true; actions: ConversionAction[] } | { ok: false; errors: ActionErrors };

/**
 * The settings form: for each action shown, `<action>-name` (one line, 1–100 characters), `<action>-value`
 * (an amount, empty for none) and `<action>-enabled` (a checkbox: present means on).
 */
export function validateConversionActions(form: FormData, shown: readonly ConversionActionKey[]): ActionsValidation {
  const errors: ActionErrors = {};
  const actions: ConversionAction[] = [];
  for (const action of shown) {
    const field = (name: string) => {
      const value = form.get(`${action}-${name}`);
      return typeof value === "string" ? value : "";
    };
    const name = field("name").trim();
    if (!name || name.length > ACTION_NAME_MAX_LENGTH || /[\p{Cc}]/u.test(name)) {
      errors[`${action}-name`] =
        `Enter the name of the conversion action in the ad platform, up to ${ACTION_NAME_MAX_LENGTH} characters.`;
    }
    const valueText = field("value");
    const value = valueText.trim() === "" ? 0 : parseAmount(valueText);
    if (value === null || valueText.length > AMOUNT_MAX_LENGTH) {
      errors[`${action}-value`] = "Enter an amount such as 150 or 1,250.50, or leave it empty.";
    }
    actions.push({ action, name, defaultValueCents: value ?? 0, enabled: form.get(`${action}-enabled`) === "on" });
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, actions };
}

export async function saveConversionActions(db: Database, actions: ConversionAction[]): Promise<void> {
  if (actions.length === 0) return;
  const c = conversionActions;
  const column = (name: { name: string }) => sql.identifier(name.name);
  await executeRows(
    db,
    sql`INSERT INTO ${c} (${column(c.action)}, ${column(c.name)}, ${column(c.defaultValueCents)}, ${column(c.enabled)})
    SELECT action, name, default_value_cents, enabled
    FROM jsonb_to_recordset(${JSON.stringify(
      actions.map((action) => ({
        action: action.action,
        name: action.name,
        default_value_cents: action.defaultValueCents,
        enabled: action.enabled,
      })),
    )}::jsonb) AS action(action text, name text, default_value_cents int, enabled boolean)
    ON CONFLICT (${column(c.action)}) DO UPDATE SET ${column(c.name)} = excluded.${column(c.name)},
      ${column(c.defaultValueCents)} = excluded.${column(c.defaultValueCents)}, ${column(c.enabled)} = excluded.${column(c.enabled)}`,
  );
}
