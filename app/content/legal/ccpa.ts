import type { LegalDocumentContent } from "../types.ts";
import type { PageSeo } from "~/lib/seo.ts";

export const ccpaSeo: PageSeo = {
  title: "California Consumer Privacy Act (CCPA) Notice",
  description:
    "For California residents: the personal information we collect, how we use and share it, and how to exercise your rights to know, delete, correct and opt out under the CCPA.",
  path: "/ccpa-privacy",
};

export const ccpaNotice: LegalDocumentContent = {
  title: "California Consumer Privacy Act (CCPA) Notice",
  lastUpdated: "July 2025",
  intro: [
    "This notice is for residents of California. It adds to our [Privacy Policy](/privacy) and explains your rights under the California Consumer Privacy Act, as amended by the California Privacy Rights Act (together, the “CCPA”). {company} is operated by {operatorName}, {operatorAddress}.",
  ],
  sections: [
    {
      title: "Categories of Personal Information We Collect",
      blocks: [
        "In the preceding 12 months we have collected the following categories of personal information:",
        {
          list: [
            "Identifiers: your name, email address, phone number and IP address.",
            "Customer records: your name and phone number, as described in California Civil Code section 1798.80(e).",
            "Commercial information: the plumbing service you asked about and the details of your request.",
            "Internet or other electronic network activity: the pages you view and the call buttons you press, in our server logs and, if we use it, Google Analytics.",
          ],
        },
        "We do not collect sensitive personal information. When you have allowed this site to use your location, your browser sends your coordinates directly to a geocoding service to show your city on the page; the coordinates and the result never reach us.",
      ],
    },
    {
      title: "Sources of Personal Information",
      blocks: [
        {
          list: [
            "Directly from you, when you send a form or call the number on this site.",
            "Automatically from your browser or device, when you visit the site.",
            "From our telephone provider, which records the number and time of calls made to us.",
          ],
        },
      ],
    },
    {
      title: "How We Use Personal Information",
      blocks: [
        {
          list: [
            "To answer your request and connect you with a local plumber.",
            "To connect your calls and settle referral fees with the plumbers in our network.",
            "To keep the site secure and prevent fraud and abuse.",
            "To understand how the site is used and improve it.",
            "To meet our legal obligations, including answering privacy requests.",
          ],
        },
      ],
    },
    {
      title: "How We Share Personal Information",
      blocks: [
        "In the preceding 12 months we have disclosed personal information to:",
        {
          list: [
            "Independent plumbers in our network (identifiers, customer records and commercial information), so that they can contact you about your request. Some pay us a referral fee.",
            "Service providers and contractors that host the site, deliver email, connect calls and, if used, provide analytics (identifiers and internet activity). They may only use it to provide their services to us.",
            "Government authorities, when the law requires it.",
          ],
        },
      ],
    },
    {
      title: "Your Rights",
      blocks: [
        "As a California resident, you have the right to:",
        {
          list: [
            "Know: ask what personal information we have collected about you, where it came from, why we collected it and with whom we shared it, and receive a copy of it. Our answer covers the 12 months before your request.",
            "Delete: ask us to delete the personal information we collected from you, subject to exceptions in the law, such as records we must keep.",
            "Correct: ask us to correct inaccurate personal information about you.",
            "Opt out: tell us not to sell or share your personal information.",
            "Non-discrimination: use any of these rights without being treated differently. We will not deny you service, charge you a different price or give you a lower quality of service because you used your rights.",
          ],
        },
        "You may ask for access to your personal information, or for a copy of it in a portable format, at most two times in any 12-month period.",
      ],
    },
    {
      title: "How to Exercise Your Rights",
      blocks: [
        {
          list: [
            "To opt out of the sale or sharing of your personal information, use our [Do Not Sell My Info](/do-not-sell) form or email us. You can also turn on Global Privacy Control (GPC) in your browser: we treat a GPC signal as a valid opt-out for that browser.",
            "For all other requests, email [{operatorEmail}](mailto:{operatorEmail}) and tell us which right you want to use.",
            "You can let an authorised agent make a request for you. The agent needs your signed permission, and we may ask you to confirm your identity with us directly.",
          ],
        },
      ],
    },
    {
      title: "Verification",
      blocks: [
        "To protect your information, we check that a request to know, delete or correct comes from you. We do this by matching details you give us, such as your name, email address and phone number, with the information we hold. We only use these details to verify your request. If we cannot verify it, we tell you why. Opt-out requests do not need verification.",
      ],
    },
    {
      title: "Response Timing",
      blocks: [
        "We confirm that we received a request to know, delete or correct within 10 business days, and we answer it within 45 days. If we need more time, we can extend this once to 90 days in total; we will tell you why within the first 45 days.",
        "We act on an opt-out request as soon as we can, and no later than 15 business days after we receive it.",
      ],
    },
    {
      title: "Sale and Sharing of Personal Information",
      blocks: [
        "When we pass your request to a plumber who pays us a referral fee, this may be a “sale” of personal information under the CCPA. If we use Google Analytics, the data it collects about your visits may be “shared” for advertising purposes. In the preceding 12 months, we may have sold or shared identifiers, commercial information and internet activity in these ways.",
        "We do not sell or share the personal information of consumers we know to be under 16 years old.",
      ],
    },
    {
      title: "Contact Us",
      blocks: [
        "Questions about this notice or your rights? Contact us:",
        { list: ["{operatorName}", "{operatorAddress}", "Email: [{operatorEmail}](mailto:{operatorEmail})"] },
      ],
    },
    {
      title: "Changes to This Notice",
      blocks: [
        "We review this notice at least once a year and update it when our practices or the law change. The date at the top shows when it was last updated.",
      ],
    },
  ],
};
