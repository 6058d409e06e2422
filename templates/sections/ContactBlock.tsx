import type { ContactBlockProps } from '../view-model.js';

/** The site-wide call to action ("Let's Get Started Today!"), from content/site.yaml. */
export function ContactBlock({ block, id }: { block: ContactBlockProps; id: string }) {
  return (
    <section className="section contact-block" id={id} aria-labelledby={`${id}-heading`}>
      <div className="container contact-block-inner">
        <div>
          {block.eyebrow ? <p className="eyebrow">{block.eyebrow}</p> : null}
          <h2 id={`${id}-heading`}>{block.heading}</h2>
          <p>{block.text}</p>
        </div>
        <a className="button button-large button-light" href="/contact">
          {block.buttonLabel}
        </a>
      </div>
    </section>
  );
}
