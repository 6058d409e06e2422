export function NotFoundPage({ heading, label, message }: { heading: string; label: string; message: string }) {
  return (
    <section className="hero hero-large not-found">
      <div className="container container-narrow">
        <p className="eyebrow">{label}</p>
        <h1 id="page-heading">{heading}</h1>
        <p>{message}</p>
        <p className="hero-buttons">
          <a className="button button-large" href="/">
            Back to the home page
          </a>
          <a className="button button-large button-ghost" href="/contact">
            Contact us
          </a>
        </p>
      </div>
    </section>
  );
}
