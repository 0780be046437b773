import { useId, type ReactNode } from 'react';

/** One numbered step of the builder: a heading, a one-line summary at the right, the controls. */
export function BuilderSection({
  step,
  title,
  summary,
  children,
  testId,
}: {
  step: number;
  title: string;
  /** What the step amounts to now, e.g. "6 of 37 items". */
  summary?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  const headingId = useId();
  return (
    <section className="panel builder-section" aria-labelledby={headingId} data-testid={testId}>
      <header className="builder-section-header">
        <span className="step-number" aria-hidden="true">
          {step}
        </span>
        <h2 id={headingId}>{title}</h2>
        {summary !== undefined && <span className="builder-section-summary">{summary}</span>}
      </header>
      {children}
    </section>
  );
}
