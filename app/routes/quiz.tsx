import type { Route } from "./+types/quiz";
import { PlumbingQuiz } from "~/components/sections/PlumbingQuiz.tsx";
import { quizContent, quizSeo } from "~/content/quiz.ts";
import { pageMeta } from "~/lib/seo.ts";

export const meta: Route.MetaFunction = () => pageMeta(quizSeo);

export default function Quiz() {
  return <PlumbingQuiz content={quizContent} />;
}
