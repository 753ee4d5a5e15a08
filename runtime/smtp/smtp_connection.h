// smtp imposters' connections: each accepted socket speaks SMTP through an SmtpSession, and every
// message a client finishes goes to the imposter's MailHandler before the client hears
// "250 OK: message queued" (Mountebank answers after recording, too).
//
// A listener with Limits::raw_connections = smtp_connections(...) hands its sockets here; each
// connection registers with the listener (Listener::track), so closing the port drops it, and the
// listener's once-a-second sweep closes one that has been silent for SmtpLimits::idle_timeout.
// STARTTLS continues the connection over TLS with smtp-server's built-in certificate
// (starttls_certificate.h), as Mountebank's imposters present it.
#pragma once

#include <boost/asio/ip/address.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "runtime/http/asio_types.h"
#include "runtime/http/message.h"
#include "runtime/smtp/smtp_session.h"

namespace rift::smtp {

// Called on the listener's worker thread with each accepted message and the client's address as
// Mountebank records it (mountebank_address) and port.
using MailHandler =
    std::function<void(SmtpMail&&, const std::string& remote_address, uint16_t remote_port)>;

// The http::Limits::raw_connections for an smtp imposter. The server greets with this host's
// name, as smtp-server does with os.hostname().
std::function<void(http::Listener&, http::Socket, http::BudgetPlace)> smtp_connections(
    std::shared_ptr<const MailHandler> handler, SmtpLimits limits);

// smtp-server's session.remoteAddress: IPv4 (an IPv4-mapped IPv6 address included) dotted,
// IPv6 in its canonical compressed form.
std::string mountebank_address(const boost::asio::ip::address& address);

}  // namespace rift::smtp
