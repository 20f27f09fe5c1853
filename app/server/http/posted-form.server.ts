import { data } from "react-router";

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/**
 * The fields of a page's form. A body of another type (JSON, text) is answered 415 and one that cannot be parsed
 * 400, before the action does anything; the body's size was checked by the one body reader ahead of React Router.
 */
export async function postedForm(request: Request): Promise<FormData> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!FORM_TYPES.has(type)) throw data("Send the form as the page sends it.", { status: 415 });
  try {
    return await request.formData();
  } catch {
    throw data("The form could not be read. Please reload the page and try again.", { status: 400 });
  }
}
