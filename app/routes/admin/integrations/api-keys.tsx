import { Link } from "react-router";
import type { Route } from "./+types/api-keys";
import { DataTable, buttonClass, dangerButtonClass, linkClass } from "../components/TableRegion.tsx";
import { ConsoleForm } from "../components/ConsoleForm.tsx";
import { FieldError, TextField } from "../components/FormField.tsx";
import { formatTime } from "~/lib/operator-time.ts";
import { isRowId } from "~/lib/row-id.ts";
import { confirmFirst, confirmed, done, invalid, requireOperator, revealed } from "~/server/console/index.server.ts";
import { API_SCOPES, createApiKey, listApiKeys, revokeApiKey, validateNewKey } from "~/server/api/index.server.ts";
import { postedForm } from "~/server/http/index.server.ts";
import { ConsoleSection } from "../components/ConsoleSection.tsx";

export const meta: Route.MetaFunction = () => [{ title: "API keys" }, { name: "robots", content: "noindex" }];

export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  const time = (instant: Date | null) => (instant ? formatTime(instant, context.operatorTimeZone) : null);
  const keys = await listApiKeys(context.services.db);
  return {
    scopes: API_SCOPES,
    keys: keys.map((key) => ({
      id: key.id,
      name: key.name,
      scopes: key.scopes.join(", "),
      created: `${time(key.createdAt)} by ${key.createdBy}`,
      lastUsed: time(key.lastUsedAt) ?? "Never",
      revoked: time(key.revokedAt),
    })),
  };
}

/** "Create key" (the key shown this once) and "Revoke" (asked first). */
export async function action({ context, request }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const form = await postedForm(request);
  const { db } = context.services;
  return context.services.consoleForms.once(request, operator, form, async () => {
    if (form.get("intent") === "revoke") {
      const id = form.get("id");
      const key = (await listApiKeys(db)).find((listed) => listed.id === id && listed.revokedAt === null);
      if (!isRowId(id) || !key) return invalid({ key: null, error: "That key is already revoked or gone." }, 404);
      if (!confirmed(form)) {
        return confirmFirst(
          `Revoke the key “${key.name}”? Every tool using it is refused from now on; this cannot be undone.`,
          "Yes, revoke",
        );
      }
      await revokeApiKey(db, id);
      return done(`Key “${key.name}” revoked.`, "/admin/api-keys");
    }
    const checked = validateNewKey(form);
    if (!checked.ok) return invalid({ key: null, error: checked.error });
    const key = await createApiKey(db, { ...checked, by: operator.email });
    return revealed(`Key “${checked.name}” created.`, "/admin/api-keys", { key, error: null });
  });
}

/** Keys to the read API (/api/v1): made and revoked here; a key is shown once, when it is made. */
export default function ApiKeys({ loaderData, actionData }: Route.ComponentProps) {
  const { scopes, keys } = loaderData;
  return (
    <>
      <h1 className="text-2xl font-bold text-slate-900">API keys</h1>
      <p className="mt-2 max-w-3xl text-slate-800">
        Your own tools read leads and calls with a key: <code>GET /api/v1/leads</code> and{" "}
        <code>GET /api/v1/calls</code> with <code>Authorization: Bearer plk_…</code> (the{" "}
        <a href="/api/v1/openapi.json" className={linkClass}>
          OpenAPI document
        </a>{" "}
        lists every field). Webhooks are on the{" "}
        <Link to="/admin/integrations" className={linkClass}>
          Integrations
        </Link>{" "}
        page.
      </p>
      {actionData?.key ? (
        <div role="status" className="mt-4 rounded-lg border-2 border-emerald-700 bg-emerald-50 p-4 text-slate-900">
          <p className="font-semibold">Key created. The new key, shown this once: copy it now.</p>
          <code className="mt-2 block break-all text-lg">{actionData.key}</code>
        </div>
      ) : null}
      <ConsoleSection id="create-key" heading="Create key" className="mt-6">
        <ConsoleForm name="create" className="mt-3 grid max-w-xl gap-4">
          <TextField
            id="key-name"
            name="name"
            required
            label="Name"
            autoComplete="off"
            maxLength={80}
            error={undefined}
          />
          <fieldset aria-describedby={actionData?.error ? "key-error" : undefined}>
            <legend className="font-semibold text-slate-900">What it may read</legend>
            {scopes.map((scope) => (
              <label key={scope} htmlFor={`scope-${scope}`} className="mt-1 flex items-center gap-2 text-slate-900">
                <input id={`scope-${scope}`} type="checkbox" name="scopes" value={scope} className="size-5" />
                {scope}
              </label>
            ))}
          </fieldset>
          <FieldError id="key-error" error={actionData?.error ?? undefined} />
          <div>
            <button type="submit" className={buttonClass}>
              Create key
            </button>
          </div>
        </ConsoleForm>
      </ConsoleSection>
      {keys.length > 0 ? (
        <DataTable
          label="Keys"
          caption="Keys: newest first"
          headings={["Name", "Scopes", "Created", "Last used", "Revoke"]}
        >
          {keys.map((key) => (
            <tr key={key.id}>
              <th scope="row" className="font-normal">
                {key.name}
              </th>
              <td>{key.scopes}</td>
              <td>{key.created}</td>
              <td>{key.lastUsed}</td>
              <td>
                {key.revoked ? (
                  `Revoked ${key.revoked}`
                ) : (
                  <ConsoleForm name="revoke" row={key.id} destructive>
                    <input type="hidden" name="id" value={key.id} />
                    <button type="submit" className={dangerButtonClass} aria-label={`Revoke ${key.name}`}>
                      Revoke
                    </button>
                  </ConsoleForm>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </>
  );
}
