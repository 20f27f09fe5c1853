import type { PageSeo } from "~/lib/seo.ts";

/** Copy for /contact and /do-not-sell: headings, field labels and placeholders, and the success and error messages. */

export interface FieldCopy {
  label: string;
  placeholder: string;
}

export const contactSeo: PageSeo = {
  title: "Contact Us | Request a Free Plumbing Estimate",
  description:
    "Request a free plumbing estimate online and hear back within 24 hours, or call our 24/7 line to reach a licensed local plumber right away.",
  path: "/contact",
};

export const contactPage = {
  title: "Contact Us",
  subtitle: "Get in touch with our expert plumbing team. We're here to help 24/7.",
  callPrompt: "Need a plumber right now? Call us 24/7:",
  cardTitle: "Request a Free Estimate",
  cardIntro: "Fill out the form below and we'll get back to you within 24 hours.",
  fields: {
    firstName: { label: "First Name", placeholder: "John" },
    lastName: { label: "Last Name", placeholder: "Smith" },
    email: { label: "Email", placeholder: "john.smith@example.com" },
    phone: { label: "Phone Number", placeholder: "(555) 123-4567" },
    zip: { label: "ZIP Code", placeholder: "10001" },
    service: { label: "Service Needed", placeholder: "Describe your plumbing issue" },
    message: {
      label: "Additional Details",
      placeholder: "Tell us more about the problem, where it is and when it started",
    },
  } satisfies Record<string, FieldCopy>,
  optional: "(optional)",
  submit: "Send Request",
  submitting: "Sending...",
  success: { title: "Message sent successfully!", text: "We'll get back to you within 24 hours." },
  failure: { title: "Error sending message", text: "Please try again or call us directly." },
  optOut: {
    before: "California residents can opt out of the sale or sharing of their personal information: ",
    link: "Do Not Sell My Info",
  },
};

export const doNotSellSeo: PageSeo = {
  title: "Do Not Sell or Share My Personal Information | Opt-Out Request",
  description:
    "California residents can ask us not to sell or share their personal information. Submit an opt-out request and we will process it within 30 days.",
  path: "/do-not-sell",
};

export const doNotSellPage = {
  title: "Do Not Sell My Info",
  intro: [
    "The California Consumer Privacy Act (CCPA), as amended by the California Privacy Rights Act (CPRA), gives California residents the right to direct a business not to sell or share their personal information, including for cross-context behavioral advertising.",
    "To exercise that right, fill in the form below. You do not need an account, and we will only use the details you give us to process your request and to confirm it.",
    "We will process your request within 30 days and send you a confirmation email. An authorized agent may submit a request on your behalf. If your browser sends a Global Privacy Control signal, this site does not load analytics at all.",
  ],
  formTitle: "Opt-Out Request Form",
  fields: {
    name: { label: "Full Name", placeholder: "Your full name" },
    email: { label: "Email Address", placeholder: "you@example.com" },
    message: { label: "Additional Information", placeholder: "Anything that helps us find your information" },
  } satisfies Record<string, FieldCopy>,
  optional: "(optional)",
  submit: "Submit Opt-Out Request",
  submitting: "Submitting Request...",
  success: {
    title: "Request Submitted",
    text: "Your opt-out request has been submitted successfully. We will process it in accordance with applicable laws and send you a confirmation email.",
  },
  failure: { title: "Error", text: "There was an error submitting your request. Please try again." },
};
