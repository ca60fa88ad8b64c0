//! The node's device identity: a persistent Ed25519 key in
//! `<state_dir>/device.json` (0600 in a 0700 directory, see
//! [`super::private_file`]). The gateway pairs the device id, so losing or
//! replacing this file means pairing again; a file whose parts disagree
//! (public key or id not derived from the seed) is refused, never repaired.

use std::fmt;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::{Signer as _, SigningKey};
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::error::GatewayError;
use super::private_file::{ensure_private_dir, read_private, write_private};

/// The identity file's name inside the state directory.
pub const IDENTITY_FILE: &str = "device.json";

/// The node's signing key and the names the gateway knows it by.
///
/// Invariant: `device_id` and `public_key` are derived from `signing`
/// (checked by [`DeviceIdentity::load_or_create`]).
pub struct DeviceIdentity {
    signing: SigningKey,
    device_id: String,
    public_key: String,
}

/// `device.json` on disk.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct IdentityFile {
    version: u32,
    device_id: String,
    public_key: String,
    /// The 32-byte Ed25519 seed, base64url without padding.
    private_key_seed: String,
}

impl DeviceIdentity {
    /// Loads the identity from `state_dir`, creating the directory and a new
    /// key when there is none.
    pub fn load_or_create(state_dir: &Path) -> Result<Self, GatewayError> {
        ensure_private_dir(state_dir)?;
        let path = state_dir.join(IDENTITY_FILE);
        match read_private(&path)? {
            Some(bytes) => Self::parse(&path, &bytes),
            None => {
                let identity = Self::generate()?;
                write_private(&path, &identity.to_file_bytes(&path)?)?;
                tracing::info!(device_id = %identity.device_id, path = %path.display(), "created a new device identity");
                Ok(identity)
            }
        }
    }

    /// The device id: lowercase hex sha256 of the raw public key.
    pub fn device_id(&self) -> &str {
        &self.device_id
    }

    /// The raw public key, base64url without padding, as the gateway wants it.
    pub fn public_key(&self) -> &str {
        &self.public_key
    }

    /// Signs `payload` and returns the signature base64url without padding.
    pub fn sign(&self, payload: &str) -> String {
        URL_SAFE_NO_PAD.encode(self.signing.sign(payload.as_bytes()).to_bytes())
    }

    fn generate() -> Result<Self, GatewayError> {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).map_err(|e| GatewayError::Random(e.to_string()))?;
        let identity = Self::from_seed(&seed);
        seed.fill(0);
        Ok(identity)
    }

    fn from_seed(seed: &[u8; 32]) -> Self {
        let signing = SigningKey::from_bytes(seed);
        let raw_public = signing.verifying_key().to_bytes();
        Self {
            device_id: hex::encode(Sha256::digest(raw_public)),
            public_key: URL_SAFE_NO_PAD.encode(raw_public),
            signing,
        }
    }

    fn parse(path: &Path, bytes: &[u8]) -> Result<Self, GatewayError> {
        let bad = |reason: String| GatewayError::BadStateFile {
            path: path.to_owned(),
            reason,
        };
        let file: IdentityFile =
            serde_json::from_slice(bytes).map_err(|e| bad(format!("invalid json: {e}")))?;
        if file.version != 1 {
            return Err(bad(format!("unknown version {}", file.version)));
        }
        let mut seed_bytes = URL_SAFE_NO_PAD
            .decode(file.private_key_seed.as_bytes())
            .map_err(|_| bad("privateKeySeed is not base64url".to_owned()))?;
        let seed: [u8; 32] = seed_bytes.as_slice().try_into().map_err(|_| {
            bad(format!(
                "privateKeySeed has {} bytes, not 32",
                seed_bytes.len()
            ))
        })?;
        seed_bytes.fill(0);
        let identity = Self::from_seed(&seed);
        if identity.public_key != file.public_key || identity.device_id != file.device_id {
            return Err(bad(
                "publicKey or deviceId does not match the private key".to_owned()
            ));
        }
        Ok(identity)
    }

    fn to_file_bytes(&self, path: &Path) -> Result<Vec<u8>, GatewayError> {
        let file = IdentityFile {
            version: 1,
            device_id: self.device_id.clone(),
            public_key: self.public_key.clone(),
            private_key_seed: URL_SAFE_NO_PAD.encode(self.signing.to_bytes()),
        };
        serde_json::to_vec_pretty(&file).map_err(|e| GatewayError::BadStateFile {
            path: PathBuf::from(path),
            reason: e.to_string(),
        })
    }
}

impl fmt::Debug for DeviceIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeviceIdentity")
            .field("device_id", &self.device_id)
            .field("signing", &"<redacted>")
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use ed25519_dalek::{Signature, Verifier as _, VerifyingKey};

    use super::*;

    #[test]
    fn the_identity_persists_and_its_id_is_the_sha256_of_the_public_key() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("state");
        let first = DeviceIdentity::load_or_create(&state).unwrap();
        let again = DeviceIdentity::load_or_create(&state).unwrap();
        assert_eq!(first.device_id(), again.device_id());
        let raw = URL_SAFE_NO_PAD.decode(first.public_key()).unwrap();
        assert_eq!(raw.len(), 32);
        assert_eq!(first.device_id(), hex::encode(Sha256::digest(&raw)));
    }

    #[test]
    fn signatures_verify_under_the_published_key() {
        let dir = tempfile::tempdir().unwrap();
        let identity = DeviceIdentity::load_or_create(&dir.path().join("state")).unwrap();
        let raw: [u8; 32] = URL_SAFE_NO_PAD
            .decode(identity.public_key())
            .unwrap()
            .try_into()
            .unwrap();
        let sig: [u8; 64] = URL_SAFE_NO_PAD
            .decode(identity.sign("v3|payload"))
            .unwrap()
            .try_into()
            .unwrap();
        let key = VerifyingKey::from_bytes(&raw).unwrap();
        assert!(
            key.verify(b"v3|payload", &Signature::from_bytes(&sig))
                .is_ok()
        );
        assert!(
            key.verify(b"v3|other", &Signature::from_bytes(&sig))
                .is_err()
        );
    }

    #[test]
    fn a_file_whose_public_key_was_swapped_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let identity = DeviceIdentity::load_or_create(&dir.path().join("state")).unwrap();
        let path = dir.path().join("state").join(IDENTITY_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        let other = DeviceIdentity::from_seed(&[7u8; 32]);
        let forged = text.replace(identity.public_key(), other.public_key());
        write_private(&path, forged.as_bytes()).unwrap();
        let err = DeviceIdentity::load_or_create(&dir.path().join("state")).unwrap_err();
        assert!(matches!(err, GatewayError::BadStateFile { .. }), "{err}");
    }

    #[test]
    fn debug_output_does_not_show_the_key() {
        let identity = DeviceIdentity::from_seed(&[9u8; 32]);
        let seed = URL_SAFE_NO_PAD.encode([9u8; 32]);
        let shown = format!("{identity:?}");
        assert!(
            !shown.contains(&seed) && shown.contains("<redacted>"),
            "{shown}"
        );
    }
}
