// Rift's own built-in TLS pair for https imposters created without `key`/`cert`
// (docs/mountebank-semantics.md §2.2). Generated once with
//   openssl req -x509 -newkey rsa:2048 -nodes -days 3650
//     -subj "/C=US/ST=TX/L=Dallas/O=mountebank/CN=mountebank"
// Like Mountebank's own pair, it is public and only good for tests: clients must not trust it.
#include "runtime/imposter/default_certificate.h"

namespace rift {
namespace {

constexpr std::string_view kKey = R"PEM(
-----BEGIN PRIVATE KEY-----
MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDC6aT9DNWcN93T
Z58TMH/J8dsbIvb3UkWo6WF/c6gQ3PjMDAnRVxGdmatz/HyH5GTQjYB2TK1eXn4h
g5YPThGnXLMNda1jl3N86bumFHqRhQ2aQ6k34x5zXveD+QesdAmFftxvYbR1tAvG
Shwq+YzLxo2fLfqJ3ZSn+WnI27P7ROH5qGAY2hpw7mzPOlDemO39vhbu2i/EOeXE
6dfnPOLWNJTRDN5qyuyqgqptbHyGqQnkm9v9228zNj1MxAQA9CQpZnrcQqudg3mp
eswQemk/k4m+1eqxIidcSfQoN3M/ywtiymXXxnAvxb08PcTOiGN/MT7f8BTrOu1B
uK8w1/ktAgMBAAECggEAJmk7f7fuB791unHvBi3WXSKJyqcBEvvWaQN3GJIfEpWt
fS65J5VYTh3ozS56jyA6IuRj5sxVFSYbhrjDE4iPz5Lj4VjpvtjrpDf+qCvcfL2D
EP3ZBP+/8j4KmqoysjBa6QE3aUbQtKpy8JSNyQVNUyIxqic6Or2dTF4JVBFB/pf7
spjI5DsUhl26Jb37atBzzAYXeNkZ/ePW0qg87FqKEUrczJtWu9IO7XKUi+2tcZhd
/iaaOz/A33H0iF6IxWspZoVAQz5Z4NADxKaWJnctSBfz98XGI8/bzSK1IAAMe/cp
Z664LKFdlnfjcQbf2lIsRpXJPeGi5k77zq93hbGVuQKBgQD6GKteTp7YGMWJ8YoA
fcoCjLz1g3lSBXO6a1JtADudeV+8yvQMO1haN7btZ+tPNp5G+NgEOmGW5pHyD1Cq
hGkY7DSueYIMRYzfmnMbrd0opPzeU2WaRvftMz3m+SYKYpbAzRLNV5ZTk48JRh08
2JIlXBTDF0Ok+8hE0TO4aeiLuQKBgQDHg4AbWDVtMxfp6wfv1N7xdS3WjL3Tz1GK
SksCStySrMSgxZwd9v/9Ifp2eLe+RaJwX7RGfVUz0P+ctH4OK6rs6xxOZTAvfMs3
QARRflpcFgR8D8OqVpxtOwo2fOEBeYYbdlUPjohxLBGjdOyQ/ts1jeTA97Ug3Qfy
S9B8HkgbFQKBgQDdM2aW0fjibv6A5HbHunoqySn0CKYMarASKQxNRlB0Fr8br3It
Q2wA15he4HQaqtdRNJVzH+Pi4Ooi63LQbq66EWkDDIt+qSFRQD0hNSUP5uWVCrQp
wS1VyeWtXZ5MvyhRPNCteBOItlFjxXTktTSGAKyIZRI6YUuful0BdgLtWQKBgDkL
PiuTUuNAAoxdKM3HvV6oNEztvLC8zAGQMFYddWdygl29Yl+m6ZZEisooxdBfNIyQ
sIie+SdxkEQLzybaEWrf5h38DITnV2saoKF0UP2XRfz6vOUNEnigstDVb7fuOQvN
D5D9HcHN6dUkbycd1ys+wLLzoBQfXlBGoPt75P3pAoGAJRySC6PM0uJdIG25LGMy
YOoHLmsMCP95KJf+pYe2w3k0aqGCp2srBsMdi17GlbFdjeC/UGtEMp90nrNv4BjG
pg+fzumuiCphphaRvvg1LgGG5qLJghpmIZmO1JZpqPyAzsjb5eyRvqxzOnYNad3Z
7pZ/Fy7autr6LBWd/cWxtTQ=
-----END PRIVATE KEY-----
)PEM";

constexpr std::string_view kCert = R"PEM(
-----BEGIN CERTIFICATE-----
MIIDizCCAnOgAwIBAgIUUJaxDcz8h51t7r2cWlYKKcrtF40wDQYJKoZIhvcNAQEL
BQAwVTELMAkGA1UEBhMCVVMxCzAJBgNVBAgMAlRYMQ8wDQYDVQQHDAZEYWxsYXMx
EzARBgNVBAoMCm1vdW50ZWJhbmsxEzARBgNVBAMMCm1vdW50ZWJhbmswHhcNMjYx
MjAzMTEwNTU2WhcNMzYxMTMwMTEwNTU2WjBVMQswCQYDVQQGEwJVUzELMAkGA1UE
CAwCVFgxDzANBgNVBAcMBkRhbGxhczETMBEGA1UECgwKbW91bnRlYmFuazETMBEG
A1UEAwwKbW91bnRlYmFuazCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEB
AMLppP0M1Zw33dNnnxMwf8nx2xsi9vdSRajpYX9zqBDc+MwMCdFXEZ2Zq3P8fIfk
ZNCNgHZMrV5efiGDlg9OEadcsw11rWOXc3zpu6YUepGFDZpDqTfjHnNe94P5B6x0
CYV+3G9htHW0C8ZKHCr5jMvGjZ8t+ondlKf5acjbs/tE4fmoYBjaGnDubM86UN6Y
7f2+Fu7aL8Q55cTp1+c84tY0lNEM3mrK7KqCqm1sfIapCeSb2/3bbzM2PUzEBAD0
JClmetxCq52Deal6zBB6aT+Tib7V6rEiJ1xJ9Cg3cz/LC2LKZdfGcC/FvTw9xM6I
Y38xPt/wFOs67UG4rzDX+S0CAwEAAaNTMFEwHQYDVR0OBBYEFNm+gL26G5BGNaaX
1g26kzgOVVBJMB8GA1UdIwQYMBaAFNm+gL26G5BGNaaX1g26kzgOVVBJMA8GA1Ud
EwEB/wQFMAMBAf8wDQYJKoZIhvcNAQELBQADggEBAAlSx9A1a4Q72W07L1ed5q6W
l1pXJcNOYR+iWOSmeR3K+pN5wTiwGX6OrQHwpYhv0gugbpldtkDIFa0Sgil30P0S
R/c+92mdMXito43LlzPAXJnuGKyNipsZJ4ijrWXO7y6GU2J4q+urtPbQMCc9bfks
nNqk5ncLN7sokFIaKdG3ZO4dd/OuYimQBVOT23jvthtm3AscrYZq3p0OlkCzL3io
1iDl10rGsSJr2bC9zscEZjYJ80OvtFHpmag1rKm1N6UHARzxgG6a3smM3Sswkels
NAcdlAeLYZyOLCOZ3HNOXh+MLSGZg6+3CiigS0cupWRPcYw4IR/ZnD1d9M1OTkE=
-----END CERTIFICATE-----
)PEM";

}  // namespace

// The raw strings start with the newline after R"PEM(; PEM readers accept it, but the echoed
// key/cert should look like the files, so it is skipped.
std::string_view default_tls_key() {
  return kKey.substr(1);
}

std::string_view default_tls_cert() {
  return kCert.substr(1);
}

}  // namespace rift
