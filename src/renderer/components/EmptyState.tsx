import { useId, type ReactNode } from 'react';

/** What an empty section shows: what it will hold, and the next step. */
export interface EmptyStateProps {
  /** A line icon for the section. */
  icon: ReactNode;
  /** One short sentence: what is missing. */
  title: string;
  /** What the section will hold once there is something. */
  children: ReactNode;
  /** What to do next, in order. */
  nextSteps?: ReactNode[];
  /** An optional action under the steps (a link or button). */
  action?: ReactNode;
}

/** A calm placeholder for a section with nothing in it yet. */
export function EmptyState({ icon, title, children, nextSteps, action }: EmptyStateProps) {
  const titleId = useId();
  return (
    <section className="empty-state" aria-labelledby={titleId}>
      <div className="empty-state-icon">{icon}</div>
      <h2 id={titleId}>{title}</h2>
      <div className="empty-state-body">{children}</div>
      {nextSteps && nextSteps.length > 0 && (
        <>
          <h3 className="empty-state-next">Next</h3>
          <ol className="empty-state-steps">
            {nextSteps.map((step, index) => (
              <li key={index}>{step}</li>
            ))}
          </ol>
        </>
      )}
      {action && <div className="empty-state-action">{action}</div>}
    </section>
  );
}
