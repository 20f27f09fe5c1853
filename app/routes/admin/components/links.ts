/** A tel: link's target: the digits (and a leading +) of a phone number as the visitor typed it. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}
