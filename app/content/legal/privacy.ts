import type { LegalDocumentContent } from "../types.ts";
import type { PageSeo } from "~/lib/seo.ts";

export const privacySeo: PageSeo = {
  title: "Privacy Policy",
  description:
    "How we handle your personal data when you use our plumbing referral website, call us or send a form: what we collect, why, how long we keep it and your rights.",
  path: "/privacy",
};

export const privacyPolicy: LegalDocumentContent = {
  title: "Privacy Policy",
  lastUpdated: "July 2025",
  action: { label: "California Residents: View CCPA Privacy Notice", to: "/ccpa-privacy" },
  intro: [],
  sections: [
    {
      title: "Privacy Statement",
      blocks: [
        "{company} is a free referral service operated by {operatorName}, {operatorAddress} (“we”, “us”). We connect homeowners and businesses who need a plumber with independent local plumbing professionals. We do not employ those professionals.",
        "This statement explains which personal data we process when you visit this website, call the number on it or send us a form, why we do so, how long we keep it and which rights you have. {operatorName} is the controller of this data under the EU General Data Protection Regulation (GDPR).",
      ],
    },
    {
      title: "Processing of Personal Data",
      blocks: [
        "We process the following personal data:",
        {
          list: [
            "Contact form: your first and last name, email address, phone number, the service you need and the details you give us.",
            "Opt-out form: your name, email address and anything you add to your request.",
            "Phone calls: when you call the number on this site, our telephone provider records your phone number and the time and length of the call, so that the call can be connected to a plumber in your area and referral fees can be settled.",
            "Visits: your IP address, browser type and the pages you request, in our server logs. We use them to keep the site secure and working, for example to stop floods of automated form submissions.",
            "Approximate location: some pages show the area we serve. If you have already allowed this site to use your location, your browser sends your coordinates directly to a geocoding service, which returns your city; otherwise a lookup service estimates your city from your IP address. The result is only shown to you. It is kept in your browser until you close the tab and is never sent to us.",
            "Our own counts: we count how many times each page is viewed and each call button is pressed, per day, together with the campaign that brought the visit (such as “google / cpc / spring” from the link you followed). We keep only these totals. No cookie, IP address, browser details, visitor id or session id is stored with them, so they cannot be linked to you. Automated visitors are not counted.",
            "How you found us: when you send the contact form, it includes the first page you opened on this site, the name of the site that sent you there (never the full address), the campaign values of that link (utm_source, utm_medium, utm_campaign, utm_term, utm_content) and, if you came from an ad, the ad's click id (gclid, gbraid, wbraid, msclkid or fbclid). Your browser keeps these in session storage until you close the tab. We store them with your request to learn which pages and ads bring requests; click ids are not kept when your browser sends a Global Privacy Control signal.",
            "Analytics: if we use Google Analytics, it records the pages you view and the call buttons you press. It is never loaded when your browser sends a Global Privacy Control signal.",
          ],
        },
        "The answers you give in our plumbing quiz stay in your browser and are not sent to us. This site is not meant for anyone under 18, and we do not knowingly collect their data.",
      ],
    },
    {
      title: "Legal basis",
      blocks: [
        "We only process personal data when the law gives us a basis for it:",
        {
          list: [
            "Your request (article 6(1)(b) GDPR): to handle a contact request you send us and put you in touch with a plumber.",
            "Our legitimate interests (article 6(1)(f) GDPR): to keep the site secure, prevent abuse, connect calls, settle referral fees and understand how the site is used. We weigh these interests against yours, and you can object to this processing at any time.",
            "Your consent (article 6(1)(a) GDPR): your device location is only used after you allow it in your browser. You can withdraw consent at any time in your browser settings; this does not affect what happened before.",
            "Legal obligations (article 6(1)(c) GDPR): to keep the records the law requires and to answer privacy requests.",
          ],
        },
      ],
    },
    {
      title: "Retention periods",
      blocks: [
        "We keep personal data no longer than we need it for the purpose we collected it for.",
        {
          list: [
            "Records we are required to keep by law, such as financial and tax records, are kept for the statutory period of 5 to 7 years.",
            "All other personal data, including contact requests, call records and server logs, is kept for at most 1 year after our agreement or contact with you has ended. It is then deleted or made anonymous.",
            "Copies of our database, kept so that it can be restored if our systems fail, are kept for up to 3 months and then deleted, so personal data may remain in such a copy for up to 3 months after it is deleted from our systems. When we restore a copy, anything in it kept past the periods above is deleted at once.",
            "Our daily counts of page views and calls hold no personal data; we keep them for 25 months, so that each month can be compared with the same month a year before, and then delete them.",
            "The location shown on our pages and how you found us are kept in your own browser until you close the tab.",
          ],
        },
      ],
    },
    {
      title: "Involvement of and sharing with third parties",
      blocks: [
        "We share personal data only where this is needed for the purposes above:",
        {
          list: [
            "Plumbers: to handle your request we pass your details to one or more independent plumbing professionals who serve your area. They use them to contact you and do the work, and they are responsible for that use under their own privacy terms. Some of them pay us a fee for referrals.",
            "Service providers: companies that host the site, deliver email, connect calls and, if used, provide analytics. They work on our instructions under a data processing agreement and may not use your data for anything else.",
            "Geolocation services: the services described above receive your coordinates or IP address directly from your browser.",
            "Authorities: when the law requires us to hand over data.",
          ],
        },
        "Passing your request to a plumber who pays a referral fee may count as a “sale” or “sharing” of personal information under some US state privacy laws. You can opt out at any time; see How to Opt-Out below.",
      ],
    },
    {
      title: "Security",
      blocks: [
        "We take appropriate technical and organisational measures to protect your personal data against loss and unlawful use. The site only uses encrypted connections (HTTPS), form submissions are limited to stop abuse, and only people who need your data for their work can see it. Our service providers are bound to the same standard.",
        "If a data breach is likely to put your rights at risk, we report it to the Dutch Data Protection Authority and, where the law requires, to you.",
      ],
    },
    {
      title: "Individuals' rights",
      blocks: [
        "You have the following rights regarding your personal data:",
        {
          list: [
            "Access: you can ask which personal data we hold about you and receive a copy.",
            "Correction: you can have incorrect or incomplete data corrected.",
            "Deletion: you can ask us to delete your data, unless we must keep it by law.",
            "Limitation: you can ask us to restrict the processing of your data, for example while we check a correction.",
            "Portability: you can receive the data you gave us in a common, machine-readable format, or have it sent to another organisation.",
            "Objection: you can object to processing based on our legitimate interests, and to direct marketing at any time.",
            "Complaint: you can complain to the Dutch Data Protection Authority (Autoriteit Persoonsgegevens) or to the supervisory authority where you live. We would appreciate the chance to solve the problem with you first.",
          ],
        },
        "To use a right, email [{operatorEmail}](mailto:{operatorEmail}). We may ask you to confirm your identity so that we never give your data to someone else. We answer every request within 4 weeks.",
      ],
    },
    {
      title: "Third party websites",
      blocks: [
        "This site may link to websites of other parties, such as the plumbers in our network. This statement does not apply to those websites, and we are not responsible for how they handle your data. Please read their own privacy statements.",
      ],
    },
    {
      title: "Change of Privacy Statement",
      blocks: [
        "We may change this statement when our services or the law change. The date at the top shows when it was last updated. If a change matters for you, for example because we start using your data for a new purpose, we will say so clearly on this site before the change takes effect.",
      ],
    },
    {
      title: "Cookie policy",
      blocks: [
        "{company} does not set cookies of its own, and counts visits and calls without them. The only things we store in your browser are the area shown on our location line and how you found us (the first page of your visit, the site and campaign that sent you), in session storage, which is cleared when you close the tab.",
        "If we use Google Analytics, Google sets analytics cookies (such as _ga) to count visits and calls. These are never set when your browser sends a Global Privacy Control signal. You can also delete or block cookies at any time in your browser settings; the site keeps working without them.",
      ],
    },
    {
      title: "Cross-border data transfers",
      blocks: [
        "We are based in the Netherlands, while the plumbers in our network and several of our service providers are in the United States. When personal data is transferred outside the European Economic Area, we make sure it stays protected: the recipient is certified under the EU-U.S. Data Privacy Framework, or we agree the European Commission's standard contractual clauses with them. You can ask us for a copy of these safeguards.",
      ],
    },
    {
      title: "How to Opt-Out",
      blocks: [
        "You can tell us at any time not to sell or share your personal information:",
        {
          list: [
            "Fill in our [Do Not Sell My Info](/do-not-sell) form, or email [{operatorEmail}](mailto:{operatorEmail}).",
            "Turn on Global Privacy Control (GPC) in your browser. We honour a GPC signal as a valid opt-out for that browser, and our analytics is not loaded.",
          ],
        },
        "We process opt-out requests within 30 days, and California requests within the shorter period set by California law (see our [CCPA Privacy Notice](/ccpa-privacy)).",
      ],
    },
    {
      title: "Contact Information",
      blocks: [
        "Questions about this statement or your personal data? Contact us:",
        { list: ["{operatorName}", "{operatorAddress}", "Email: [{operatorEmail}](mailto:{operatorEmail})"] },
      ],
    },
  ],
};
