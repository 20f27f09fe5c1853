import { expect, test, type Page } from "@playwright/test";
import { env, toPublicSiteConfig } from "../../app/config/env.server.ts";

const { legalOperator, companyName } = toPublicSiteConfig(env);

async function expectDocument(page: Page, path: string, title: string, sections: string[]) {
  await page.goto(path);
  await expect(page).toHaveTitle(new RegExp(title.replace(/[()]/g, "\\$&")));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.getByText("Last updated: July 2025", { exact: true })).toBeVisible();
  await expect(page.locator("article section > h2")).toHaveText(
    sections.map((section, index) => `${index + 1}. ${section}`),
  );
  await expect(page.getByRole("navigation", { name: "Contents" }).getByRole("link")).toHaveText(sections);
  // Every placeholder was filled from configuration.
  await expect(page.locator("main")).not.toContainText(/\{\w+\}|\]\(/);
  await expect(page.locator("main")).toContainText(legalOperator.name);
  await expect(page.locator("main")).toContainText(legalOperator.email);
  await expect(page.locator(`main a[href="mailto:${legalOperator.email}"]`).first()).toBeVisible();
  return page.locator("main");
}

test("the privacy policy has every section, the CCPA button and the promised time limits", async ({ page }) => {
  const main = await expectDocument(page, "/privacy", "Privacy Policy", [
    "Privacy Statement",
    "Processing of Personal Data",
    "Legal basis",
    "Retention periods",
    "Involvement of and sharing with third parties",
    "Security",
    "Individuals' rights",
    "Third party websites",
    "Change of Privacy Statement",
    "Cookie policy",
    "Cross-border data transfers",
    "How to Opt-Out",
    "Contact Information",
  ]);
  const ccpa = main.getByRole("link", { name: "California Residents: View CCPA Privacy Notice" });
  await expect(ccpa).toHaveAttribute("href", "/ccpa-privacy");
  await expect(ccpa).toHaveClass(/rounded-lg/);
  for (const right of ["Access", "Correction", "Deletion", "Limitation", "Portability", "Objection", "Complaint"]) {
    await expect(main.locator("#individuals-rights li").filter({ hasText: new RegExp(`^${right}:`) })).toHaveCount(1);
  }
  await expect(main).toContainText("We answer every request within 4 weeks.");
  await expect(main).toContainText("We process opt-out requests within 30 days");
  await expect(main).toContainText("statutory period of 5 to 7 years");
  await expect(main).toContainText("at most 1 year after our agreement or contact with you has ended");
  await expect(main.locator("#how-to-opt-out")).toContainText("Global Privacy Control");
  await expect(main.locator("#how-to-opt-out").getByRole("link", { name: "Do Not Sell My Info" })).toHaveAttribute(
    "href",
    "/do-not-sell",
  );
  await expect(main.locator("#contact-information")).toContainText(legalOperator.address);
  await expect(main).toContainText(`${companyName} is a free referral service operated by ${legalOperator.name}`);
});

test("the CCPA notice has every section and the California time limits", async ({ page }) => {
  const main = await expectDocument(page, "/ccpa-privacy", "California Consumer Privacy Act (CCPA) Notice", [
    "Categories of Personal Information We Collect",
    "Sources of Personal Information",
    "How We Use Personal Information",
    "How We Share Personal Information",
    "Your Rights",
    "How to Exercise Your Rights",
    "Verification",
    "Response Timing",
    "Sale and Sharing of Personal Information",
    "Contact Us",
    "Changes to This Notice",
  ]);
  for (const right of ["Know", "Delete", "Opt out", "Non-discrimination"]) {
    await expect(main.locator("#your-rights li").filter({ hasText: new RegExp(`^${right}:`) })).toHaveCount(1);
  }
  await expect(main).toContainText("at most two times in any 12-month period");
  await expect(main).toContainText("Our answer covers the 12 months before your request.");
  await expect(main).toContainText("we answer it within 45 days");
  await expect(main).toContainText("once to 90 days in total");
  await expect(main.locator("#how-to-exercise-your-rights")).toContainText("Global Privacy Control");
  await expect(main.getByRole("link", { name: "Do Not Sell My Info" })).toHaveAttribute("href", "/do-not-sell");
  await expect(main.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
});

test("the terms cover every topic, Dutch law and the Amsterdam court, and link to the privacy policy", async ({
  page,
}) => {
  const main = await expectDocument(page, "/terms", "Terms of Use", [
    "Definitions",
    "Access and Registration",
    "User Obligations",
    "Content",
    "External Links and Linking Policy",
    "Cancellation and Termination",
    "Intellectual Property",
    "Limitation of Liability",
    "Indemnity",
    "Miscellaneous",
    "Governing Law and Jurisdiction",
    "Contact",
  ]);
  const obligations = main.locator("#user-obligations li");
  await expect(obligations.filter({ hasText: "You must be 18 or older" })).toHaveCount(1);
  await expect(obligations.filter({ hasText: "anything illegal" })).toHaveCount(1);
  await expect(obligations.filter({ hasText: "only one Account" })).toHaveCount(1);
  await expect(main.locator("#governing-law-and-jurisdiction")).toContainText("governed by Dutch law");
  await expect(main.locator("#governing-law-and-jurisdiction")).toContainText("court in Amsterdam");
  await expect(main.locator("#contact")).toContainText(`${legalOperator.name}, ${legalOperator.address}`);
  await expect(main.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
});

test("the contents links jump to their sections", async ({ page }) => {
  await page.goto("/terms");
  await page.getByRole("navigation", { name: "Contents" }).getByRole("link", { name: "Indemnity" }).click();
  await expect(page).toHaveURL(/#indemnity$/);
  await expect(page.getByRole("heading", { name: "9. Indemnity" })).toBeInViewport();
});
