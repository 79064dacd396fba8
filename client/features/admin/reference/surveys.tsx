import { createSurvey, deleteSurvey, listSurveys, updateSurvey } from '../../../api/surveys.ts';
import type { Survey, SurveyQuestion } from '../../../../contract/schemas/surveys.ts';
import { formatNumber, t } from '../../../lib/i18n.ts';
import { CheckboxField, TextArea, TextField } from '../fields.tsx';
import { QuestionsEditor } from './QuestionsEditor.tsx';
import type { ReferenceConfig } from './ReferenceTable.tsx';
import { questionErrors, questionToForm, toQuestion, type QuestionForm } from './survey-questions.ts';
import { readAll } from '../../../data/fetch-all.ts';

interface SurveyForm {
  title: string;
  description: string;
  active: boolean;
  questions: QuestionForm[];
}

function toBody(f: SurveyForm) {
  return { title: f.title.trim(), description: f.description.trim(), active: f.active, questions: f.questions.map(toQuestion) };
}

const questionSummary = (questions: SurveyQuestion[]) => t('admin.surveys.questionCount', { n: formatNumber(questions.length) });

export const surveysConfig: ReferenceConfig<Survey, SurveyForm, ReturnType<typeof toBody>> = {
  keyPrefix: 'admin.surveys',
  load: (signal) => readAll((range) => listSurveys({ order: ['title ASC', 'id ASC'], ...range }, signal), signal),
  columns: () => [
    {
      header: t('admin.surveys.surveyTitle'),
      cell: (s) => (
        <>
          <strong>{s.title}</strong>
          {s.description && <small className="admin-block admin-muted">{s.description}</small>}
        </>
      ),
    },
    {
      header: t('admin.surveys.questions'),
      cell: (s) => (
        <details>
          <summary>{questionSummary(s.questions)}</summary>
          <ol className="admin-questions">
            {s.questions.map((q) => (
              <li key={q.id}>
                {q.text} <small className="admin-muted">({t(`admin.surveys.types.${q.type}`)})</small>
              </li>
            ))}
          </ol>
        </details>
      ),
    },
    { header: t('admin.surveys.active'), cell: (s) => (s.active ? t('admin.yes') : t('admin.no')) },
  ],
  itemName: (s) => s.title,
  emptyForm: () => ({ title: '', description: '', active: true, questions: [questionToForm(undefined, 1)] }),
  toForm: (s) => ({ title: s.title, description: s.description, active: s.active, questions: s.questions.map((q, i) => questionToForm(q, i + 1)) }),
  validate: (f) => {
    const errors: Partial<Record<keyof SurveyForm, string>> = {};
    if (!f.title.trim()) errors.title = 'admin.required';
    if (f.questions.length === 0) errors.questions = 'admin.surveys.needQuestion';
    else if (f.questions.some((q) => Object.keys(questionErrors(q, f.questions)).length > 0)) errors.questions = 'admin.surveys.checkQuestions';
    return errors;
  },
  renderFields: (f, set, errorFor) => (
    <>
      <TextField label={t('admin.surveys.surveyTitle')} value={f.title} onValue={(title) => set({ title })} required error={errorFor('title')} />
      <TextArea label={t('admin.surveys.description')} value={f.description} onValue={(description) => set({ description })} />
      <CheckboxField label={t('admin.surveys.activeLabel')} checked={f.active} onValue={(active) => set({ active })} hint={t('admin.surveys.activeHint')} />
      <QuestionsEditor questions={f.questions} onChange={(questions) => set({ questions })} showErrors={!!errorFor('questions')} />
      {errorFor('questions') && (
        <p className="form-error" role="alert">
          {errorFor('questions')}
        </p>
      )}
    </>
  ),
  toBody,
  create: (body) => createSurvey(body),
  update: (item, changes) => updateSurvey(item.id, changes),
  remove: (s) => deleteSurvey(s.id),
};
