/** Copy shared by every page's chrome. `{company}` is replaced with the page's company name. */
export const footerLinks = [
  { to: "/about", label: "About Us" },
  { to: "/contact", label: "Contact" },
  { to: "/quiz", label: "Take Quiz" },
  { to: "/privacy", label: "Privacy Policy" },
  { to: "/ccpa-privacy", label: "CCPA Privacy Notice" },
  { to: "/terms", label: "Terms of Use" },
  { to: "/do-not-sell", label: "Do Not Sell My Info" },
] as const;

export const footerTagline = "Fast, friendly help from licensed local pros, 24 hours a day, 7 days a week.";

export const disclaimerParagraphs = [
  "{company} is a free referral service. We connect homeowners and businesses with independent, local plumbing and HVAC professionals. We do not employ, supervise or oversee these professionals, and we are not responsible for the work they perform.",
  "Calling the number on this site connects you with a participating independent provider serving your area. Every provider is responsible for holding the licences and insurance that their work requires; ask them to confirm before work begins.",
  "Prices shown are starting prices. Your final price depends on the job and is agreed directly between you and the provider before work begins. Availability, response times and guarantees are offered by the provider and may vary by location.",
];

export const copyrightYear = 2024;
