import { t } from '../../../lib/i18n.ts';
import { SelectField, TextArea, TextField } from '../fields.tsx';
import { nextQuestionId, questionErrors, questionToForm, type QuestionForm } from './survey-questions.ts';

interface Props {
  questions: QuestionForm[];
  onChange: (questions: QuestionForm[]) => void;
  showErrors: boolean;
}

/** Edit, add, remove and reorder the questions of a survey. */
export function QuestionsEditor({ questions, onChange, showErrors }: Props) {
  const update = (index: number, patch: Partial<QuestionForm>) => onChange(questions.map((q, i) => (i === index ? { ...q, ...patch } : q)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...questions];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item);
    onChange(next);
  };
  const add = () => onChange([...questions, { ...questionToForm(undefined, questions.length + 1), id: nextQuestionId(questions) }]);

  return (
    <fieldset className="admin-question-editor">
      <legend>{t('admin.surveys.questions')}</legend>
      <ol>
        {questions.map((q, i) => {
          const errors = showErrors ? questionErrors(q, questions) : {};
          const err = (key: keyof QuestionForm) => (errors[key] ? t(errors[key]!) : null);
          const n = i + 1;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: questions have no id before they are saved; every input is controlled, so no state sticks to a position
            <li key={i} className="admin-question">
              <fieldset>
                <legend>{t('admin.surveys.questionN', { n })}</legend>
                <TextArea label={t('admin.surveys.questionText')} value={q.text} onValue={(text) => update(i, { text })} required error={err('text')} />
                <div className="grid">
                  <SelectField
                    label={t('admin.surveys.questionType')}
                    value={q.type}
                    onValue={(type) => update(i, { type: type as QuestionForm['type'] })}
                    options={(['scale', 'choice', 'text'] as const).map((type) => ({ value: type, label: t(`admin.surveys.types.${type}`) }))}
                  />
                  <TextField
                    label={t('admin.surveys.questionId')}
                    value={q.id}
                    onValue={(id) => update(i, { id })}
                    error={err('id')}
                    hint={t('admin.surveys.questionIdHint')}
                  />
                </div>
                <TypeFields question={q} update={(patch) => update(i, patch)} err={err} />
                <div className="button-row">
                  {[
                    { text: 'up', label: 'moveUp', className: 'secondary outline', disabled: i === 0, act: () => move(i, -1) },
                    { text: 'down', label: 'moveDown', className: 'secondary outline', disabled: i === questions.length - 1, act: () => move(i, 1) },
                    {
                      text: 'remove',
                      label: 'removeN',
                      className: 'danger outline',
                      disabled: questions.length === 1,
                      act: () => onChange(questions.filter((_, j) => j !== i)),
                    },
                  ].map((b) => (
                    <button
                      key={b.text}
                      type="button"
                      className={b.className}
                      disabled={b.disabled}
                      onClick={b.act}
                      aria-label={t(`admin.surveys.${b.label}`, { n })}
                    >
                      {t(`admin.surveys.${b.text}`)}
                    </button>
                  ))}
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <button type="button" className="secondary" onClick={add}>
        {t('admin.surveys.addQuestion')}
      </button>
    </fieldset>
  );
}

interface TypeFieldsProps {
  question: QuestionForm;
  update: (patch: Partial<QuestionForm>) => void;
  err: (key: keyof QuestionForm) => string | null;
}

/** What a question's type needs besides its text: the options of a choice, the range and end labels of a scale. */
function TypeFields({ question, update, err }: TypeFieldsProps) {
  return (
    <>
      {question.type === 'choice' && (
        <TextArea label={t('admin.surveys.options')} value={question.options} onValue={(options) => update({ options })} error={err('options')} />
      )}
      {question.type === 'scale' && (
        <>
          <div className="grid">
            <TextField label={t('admin.surveys.min')} value={question.min} inputMode="numeric" onValue={(min) => update({ min })} error={err('min')} />
            <TextField label={t('admin.surveys.max')} value={question.max} inputMode="numeric" onValue={(max) => update({ max })} error={err('max')} />
          </div>
          <div className="grid">
            <TextField label={t('admin.surveys.minLabel')} value={question.minLabel} onValue={(minLabel) => update({ minLabel })} />
            <TextField label={t('admin.surveys.maxLabel')} value={question.maxLabel} onValue={(maxLabel) => update({ maxLabel })} />
          </div>
        </>
      )}
    </>
  );
}
