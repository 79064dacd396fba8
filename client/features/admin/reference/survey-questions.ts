import type { SurveyQuestion } from '../../../../contract/schemas/surveys.ts';

/** A question as the form holds it: numbers and the choice options as typed text. */
export interface QuestionForm {
  id: string;
  text: string;
  type: SurveyQuestion['type'];
  /** choice: one answer per line. */
  options: string;
  min: string;
  max: string;
  minLabel: string;
  maxLabel: string;
}

const ID = /^[A-Za-z0-9_-]{1,40}$/;

export function questionToForm(q: SurveyQuestion | undefined, position: number): QuestionForm {
  if (!q) return { id: `q${position}`, text: '', type: 'scale', options: '', min: '1', max: '5', minLabel: '', maxLabel: '' };
  return {
    id: q.id,
    text: q.text,
    type: q.type,
    options: (q.options ?? []).join('\n'),
    min: q.min === undefined ? '' : String(q.min),
    max: q.max === undefined ? '' : String(q.max),
    minLabel: q.minLabel ?? '',
    maxLabel: q.maxLabel ?? '',
  };
}

/** A fresh id that is not taken yet (q1, q2, ...). */
export function nextQuestionId(questions: QuestionForm[]): string {
  const taken = new Set(questions.map((q) => q.id));
  let n = questions.length + 1;
  while (taken.has(`q${n}`)) n++;
  return `q${n}`;
}

const optionList = (text: string) =>
  text
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);
const int = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);

/** Locale keys of problems per field of one question (the same rules as the server's schema). */
export function questionErrors(q: QuestionForm, all: QuestionForm[]): Partial<Record<keyof QuestionForm, string>> {
  const errors: Partial<Record<keyof QuestionForm, string>> = {};
  if (!ID.test(q.id)) errors.id = 'admin.surveys.idInvalid';
  else if (all.filter((other) => other.id === q.id).length > 1) errors.id = 'admin.surveys.idTaken';
  if (!q.text.trim()) errors.text = 'admin.required';
  if (q.type === 'choice' && optionList(q.options).length < 2) errors.options = 'admin.surveys.optionsTooFew';
  if (q.type === 'scale') {
    const min = int(q.min);
    const max = int(q.max);
    if (min === null || min > 100) errors.min = 'admin.surveys.scaleNumber';
    if (max === null || max < 1 || max > 100) errors.max = 'admin.surveys.scaleNumber';
    else if (min !== null && min >= max) errors.max = 'admin.surveys.scaleOrder';
  }
  return errors;
}

export function toQuestion(q: QuestionForm): SurveyQuestion {
  const base = { id: q.id.trim(), text: q.text.trim(), type: q.type };
  if (q.type === 'choice') return { ...base, options: optionList(q.options) };
  if (q.type === 'scale') {
    return {
      ...base,
      min: int(q.min) ?? 1,
      max: int(q.max) ?? 5,
      ...(q.minLabel.trim() ? { minLabel: q.minLabel.trim() } : {}),
      ...(q.maxLabel.trim() ? { maxLabel: q.maxLabel.trim() } : {}),
    };
  }
  return base;
}
