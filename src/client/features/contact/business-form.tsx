// Placeholder: the contact/notifications work replaces this with the real business inquiry form.
export function BusinessInquiryForm() {
  return <form aria-label="Business inquiry form" />;
}
