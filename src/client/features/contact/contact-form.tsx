// Placeholder: the contact/notifications work replaces this with the real form and its server flow.
export function ContactForm() {
  return <form aria-label="Contact form" />;
}
