import { App } from '../../../hooks/appApi';
import { useCallback } from 'react';

/** Spec: at most 4 default questions. */
export const MAX_DEFAULT_QUESTIONS = 4;

export type AddQuestionOutcome = { questions: string[] } | { refused: 'blank' | 'maximum' };

/** The rule alone: a blank question is not added, and there are never more than four. */
export function addDefaultQuestion(questions: string[], draft: string): AddQuestionOutcome {
  const question = draft.trim();
  if (!question) return { refused: 'blank' };
  if (questions.length >= MAX_DEFAULT_QUESTIONS) return { refused: 'maximum' };
  return { questions: [...questions, question] };
}

/** The rule with the spec's destructive toast; returns the new list, or null when nothing was added. */
export function useAddDefaultQuestion(): (questions: string[], draft: string) => string[] | null {
  const { notification } = App.useApp();
  return useCallback(
    (questions, draft) => {
      const outcome = addDefaultQuestion(questions, draft);
      if ('questions' in outcome) return outcome.questions;
      if (outcome.refused === 'maximum') {
        notification.error({
          title: 'Maximum questions reached',
          description: 'You can only have up to 4 default questions',
        });
      }
      return null;
    },
    [notification],
  );
}
