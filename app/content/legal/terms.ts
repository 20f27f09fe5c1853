import type { LegalDocumentContent } from "../types.ts";
import type { PageSeo } from "~/lib/seo.ts";

export const termsSeo: PageSeo = {
  title: "Terms of Use",
  description:
    "The terms for using our free plumbing referral website: who may use it, what you may and may not do, our liability, Dutch governing law and how to contact us.",
  path: "/terms",
};

export const termsOfUse: LegalDocumentContent = {
  title: "Terms of Use",
  lastUpdated: "July 2025",
  intro: [
    "These terms apply to every use of this website, which {operatorName} runs under the name {company}. By using the site you accept these terms. Please also read our [Privacy Policy](/privacy), which explains how we handle your personal data.",
  ],
  sections: [
    {
      title: "Definitions",
      blocks: [
        {
          list: [
            "“We”, “us” and “our”: {operatorName}, {operatorAddress}, trading as {company}.",
            "“Site”: this website and everything on it.",
            "“You”: anyone who visits or uses the Site.",
            "“Plumber”: an independent plumbing, HVAC or other trade professional whom we refer you to. Plumbers are not our employees or agents.",
            "“Content”: the text, images, logos, prices, ratings and other material on the Site.",
            "“Account”: a personal registration on the Site, should we ever offer one.",
          ],
        },
      ],
    },
    {
      title: "Access and Registration",
      blocks: [
        "The Site is free to use and you do not need to register. We may change, suspend or withdraw the Site or any part of it without notice, and we do not promise that it will always be available or free of errors.",
        "The Site currently has no accounts. If we offer registration in the future, you must give accurate information, keep your login details to yourself and tell us straight away if someone else uses them. You are responsible for everything done with your Account.",
      ],
    },
    {
      title: "User Obligations",
      blocks: [
        {
          list: [
            "You must be 18 or older to use the Site or send us a request.",
            "You may not use the Site for anything illegal or fraudulent, or in a way that infringes the rights of others.",
            "You may not send false requests, or requests in someone else's name without their permission.",
            "You may not disrupt the Site, copy it by automated means, or try to get around its security.",
            "You may hold only one Account, should Accounts ever be offered.",
          ],
        },
      ],
    },
    {
      title: "Content",
      blocks: [
        "The Content is general information. Prices are starting prices; ratings, offers, response times and guarantees describe what Plumbers in our network offer, and may vary by area and by Plumber. The price and terms of any work are agreed directly between you and the Plumber before the work begins.",
        "We do not carry out, supervise or guarantee plumbing work. Ask the Plumber to confirm their licence and insurance before work starts.",
        "What you send us must be accurate and lawful. You allow us to use it to handle your request, as described in our Privacy Policy.",
      ],
    },
    {
      title: "External Links and Linking Policy",
      blocks: [
        "The Site may link to websites that we do not control. We are not responsible for their content, availability or privacy practices.",
        "You may link to the home page of the Site, as long as you do so fairly and legally and do not suggest any connection, approval or endorsement from us that does not exist. You may not show the Site inside a frame on another site, or link to it from a site with unlawful content. We may withdraw permission to link at any time.",
      ],
    },
    {
      title: "Cancellation and Termination",
      blocks: [
        "You can stop using the Site at any time. We may refuse or end your access to the Site, without notice, if you break these terms or the law.",
        "Any agreement you make with a Plumber is between you and the Plumber, and its cancellation is governed by the Plumber's own terms and the law. The sections on intellectual property, limitation of liability, indemnity and governing law continue to apply after your use of the Site ends.",
      ],
    },
    {
      title: "Intellectual Property",
      blocks: [
        "All rights in the Site and the Content, including the {company} name and logo, belong to us or our licensors. You may view and print pages for your own, non-commercial use. Any other use, such as copying, publishing or selling Content, needs our written permission.",
      ],
    },
    {
      title: "Limitation of Liability",
      blocks: [
        "We provide the Site “as is”. As a referral service, we are not a party to any agreement between you and a Plumber. We are not liable for work a Plumber does or fails to do, for their prices, or for damage they cause; claims about the work are for the Plumber.",
        "As far as the law allows, we are not liable for indirect or consequential loss, such as lost profits or lost data, arising from your use of the Site. Nothing in these terms limits our liability for intent or deliberate recklessness, or any liability that cannot be limited by law.",
      ],
    },
    {
      title: "Indemnity",
      blocks: [
        "You will compensate us for claims by third parties, and the reasonable costs of dealing with them, that arise from your breach of these terms or your misuse of the Site, unless the claim is caused by our own fault.",
      ],
    },
    {
      title: "Miscellaneous",
      blocks: [
        "If a provision of these terms is invalid, the rest remains in force, and the invalid provision is replaced by a valid one that comes as close as possible to its purpose. If we do not enforce a right straight away, we have not given it up.",
        "We may change these terms. The date at the top shows when they were last updated, and the version on the Site when you use it applies. You may not transfer your rights under these terms without our permission.",
      ],
    },
    {
      title: "Governing Law and Jurisdiction",
      blocks: [
        "These terms, and any dispute about them or about the Site, are governed by Dutch law. Disputes are submitted exclusively to the competent court in Amsterdam, the Netherlands.",
        "If you use the Site as a consumer, this does not take away the protection given to you by the mandatory law of the country or state where you live, or your right to bring a claim there.",
      ],
    },
    {
      title: "Contact",
      blocks: [
        "Questions about these terms? Email [{operatorEmail}](mailto:{operatorEmail}) or write to {operatorName}, {operatorAddress}.",
      ],
    },
  ],
};
