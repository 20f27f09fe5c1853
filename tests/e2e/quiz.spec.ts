import { expect, test, type Page } from "@playwright/test";
import { recordAnalytics, recordedPhoneClicks, waitForHydration } from "./helpers.ts";

const nextButton = (page: Page) => page.getByRole("button", { name: "Next Question" });

async function expectProgress(page: Page, question: number, percent: number) {
  await expect(page.getByText(`Question ${question} of 4`, { exact: true })).toBeVisible();
  await expect(page.getByText(`${percent}% Complete`, { exact: true })).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Assessment progress" })).toHaveAttribute(
    "aria-valuenow",
    String(percent),
  );
}

/** Answers the four questions by their visible labels and opens the result. */
async function takeQuiz(page: Page, issue: string, age: string, type: string, zip = "94107") {
  await page.goto("/quiz");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Start Assessment" }).click();
  for (const label of [issue, age, type]) {
    await page.getByRole("radio", { name: label, exact: true }).check();
    await nextButton(page).click();
  }
  await page.getByRole("textbox", { name: "What's your ZIP code?" }).fill(zip);
  await page.getByRole("button", { name: "Get My Results" }).click();
  return page.getByTestId("quiz-result");
}

test.describe("quiz", () => {
  test("the intro shows the headline, the 2-minute promise and Start Assessment", async ({ page }) => {
    await page.goto("/quiz");
    await expect(page).toHaveTitle(/2-Minute Plumbing Assessment/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Expert Plumbers 24/7");
    await expect(page.getByText("Takes about 2 minutes")).toBeVisible();
    await expect(page.getByRole("button", { name: "Start Assessment" })).toBeVisible();
    await expect(page.getByRole("progressbar")).toHaveCount(0);
  });

  test("a tap on Start Assessment before hydration is kept: the quiz opens at question 1", async ({ page }) => {
    // The tap comes in the same task as the load event; the app's scripts only start after it.
    await page.addInitScript(() => {
      window.addEventListener("load", () => {
        const start = Array.from(document.querySelectorAll("button")).find(
          (button) => button.textContent === "Start Assessment",
        );
        Object.assign(window, { __hydratedAtTap: document.documentElement.dataset.hydrated ?? "no" });
        start?.click();
      });
    });
    await page.goto("/quiz");
    expect(await page.evaluate(() => (window as unknown as { __hydratedAtTap: string }).__hydratedAtTap)).toBe("no");
    await expectProgress(page, 1, 20);
    const group = page.getByRole("group", { name: "What plumbing problem are you dealing with?" });
    await expect(group.getByRole("heading", { level: 2 })).toBeFocused();
    await expect(nextButton(page)).toBeDisabled();
  });

  test("a question, which the page's first view does not carry the styles of, is styled once it shows", async ({
    page,
  }) => {
    await page.goto("/quiz");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Start Assessment" }).click();
    const bar = page.getByRole("progressbar", { name: "Assessment progress" });
    const drawn = await bar.evaluate((element) => {
      const style = getComputedStyle(element);
      return { height: style.height, background: style.backgroundColor };
    });
    expect(drawn.height).toBe("8px");
    expect(drawn.background).not.toBe("rgba(0, 0, 0, 0)");
  });

  test("walks through four questions with progress; each Next stays disabled until answered", async ({ page }) => {
    await page.goto("/quiz");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Start Assessment" }).click();

    const steps = [
      {
        legend: "What plumbing problem are you dealing with?",
        options: [
          "Leaks or water damage",
          "Clogged drains or toilets",
          "Low water pressure",
          "Several problems at once",
          "No problems, just a check-up",
          "Something else",
        ],
      },
      { legend: "How old is your home?", options: ["0–5 years", "5–15 years", "15–30 years", "More than 30 years"] },
      {
        legend: "What type of property is it?",
        options: ["House", "Apartment or condo", "Townhouse", "Commercial property", "Other"],
      },
    ];
    for (const [index, step] of steps.entries()) {
      await expectProgress(page, index + 1, (index + 1) * 20);
      const group = page.getByRole("group", { name: step.legend });
      await expect(group.getByRole("heading", { level: 2 })).toBeFocused();
      const radios = group.getByRole("radio");
      expect(
        await radios.evaluateAll((items) => items.map((item) => (item as HTMLInputElement).labels?.[0]?.textContent)),
      ).toEqual(step.options);
      await expect(nextButton(page)).toBeDisabled();
      await group.getByRole("radio", { name: step.options[1] }).check();
      await expect(nextButton(page)).toBeEnabled();
      await nextButton(page).click();
    }

    await expectProgress(page, 4, 80);
    const zip = page.getByRole("textbox", { name: "What's your ZIP code?" });
    await expect(zip).toHaveAttribute("maxlength", "5");
    const finish = page.getByRole("button", { name: "Get My Results" });
    await expect(page.getByRole("button", { name: "Next Question" })).toHaveCount(0);
    await expect(finish).toBeDisabled();
    await zip.fill("   ");
    await expect(finish).toBeEnabled();
    await zip.fill("");
    await expect(finish).toBeDisabled();
    await zip.pressSequentially("1234567");
    await expect(zip).toHaveValue("12345");
    await expect(finish).toBeEnabled();
    await finish.click();
    await expect(page.getByTestId("quiz-result").getByRole("heading", { level: 2 })).toBeFocused();
    await expect(page.getByRole("progressbar")).toHaveCount(0);
  });

  for (const { name, answers, heading, offer, note } of [
    {
      name: "a leak is an emergency",
      answers: ["Leaks or water damage", "0–5 years", "House"],
      heading: "Emergency Service Recommended",
      offer: "25% OFF Emergency Service",
      note: "Available 24/7",
    },
    {
      name: "several problems in a home over 30 years old call for an upgrade",
      answers: ["Several problems at once", "More than 30 years", "Townhouse"],
      heading: "System Upgrade Consultation",
      offer: "FREE System Assessment",
      note: "Schedule within 48 hours",
    },
    {
      name: "no problems in a 15-30 year old home call for maintenance",
      answers: ["No problems, just a check-up", "15–30 years", "Apartment or condo"],
      heading: "Preventive Maintenance Check",
      offer: "25% OFF Maintenance Service",
      note: "Book this week",
    },
    {
      name: "anything else gets standard service",
      answers: ["Several problems at once", "15–30 years", "Commercial property"],
      heading: "Professional Service Available",
      offer: "25% OFF Any Service",
      note: "Same-day service available",
    },
  ]) {
    test(`result: ${name}`, async ({ page }) => {
      const [issue, age, type] = answers as [string, string, string];
      const result = await takeQuiz(page, issue, age, type);
      await expect(result.getByRole("heading", { level: 2 })).toHaveText(heading);
      await expect(result.getByText(offer, { exact: true })).toBeVisible();
      await expect(result.getByText(note, { exact: true })).toBeVisible();
      const call = result.getByRole("link", { name: "Call Now for Service" });
      await expect(call).toHaveAttribute("href", /^tel:\+\d+$/);
      await expect(call).toHaveAttribute("data-phone-placement", "quiz_results");
    });
  }

  test("the answers never leave the page", async ({ page }) => {
    const requests: string[] = [];
    page.on("request", (request) => requests.push(`${request.method()} ${request.url()} ${request.postData() ?? ""}`));
    await takeQuiz(page, "Low water pressure", "5–15 years", "House", "80210");
    expect(requests.filter((request) => /80210|pressure|5-15|house/.test(request))).toEqual([]);
    // The only thing sent is the page view the site counts for every page, which carries no answer.
    const viewCount = /^POST \S+\/api\/events \{"kind":"view","path":"\/quiz"\}$/;
    expect(requests.filter((request) => !request.startsWith("GET ") && !viewCount.test(request))).toEqual([]);
    await expect(page).toHaveURL(/\/quiz$/);
  });

  test("the footer area reassures, offers 'Call us 24/7' and shows an image", async ({ page }) => {
    await page.goto("/quiz");
    const footer = page.getByTestId("quiz-footer");
    await expect(footer).toContainText("Licensed and insured local plumbers");
    await expect(footer.getByRole("link", { name: "Call us 24/7" })).toHaveAttribute(
      "data-phone-placement",
      "quiz_footer",
    );
    await expect(footer.getByRole("img")).toBeVisible();
  });

  test("every call link on the quiz sends phone_click with its placement", async ({ page }) => {
    await recordAnalytics(page);
    await takeQuiz(page, "Leaks or water damage", "More than 30 years", "House");
    await page.getByRole("link", { name: "Call Now for Service" }).click();
    await page.getByRole("link", { name: "Call us 24/7" }).click();
    const labels = (await recordedPhoneClicks(page)).map((click) => click.params.event_label);
    expect(labels).toEqual(["quiz_results", "quiz_footer"]);
  });

  test("without JavaScript the page says the assessment needs it and still offers a call", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/quiz");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Expert Plumbers 24/7");
    await expect(page.getByText("The assessment needs JavaScript")).toBeVisible();
    await expect(page.getByRole("button", { name: "Start Assessment" })).toBeHidden();
    await expect(page.getByRole("link", { name: "Call us 24/7" })).toBeVisible();
    await context.close();
  });
});
