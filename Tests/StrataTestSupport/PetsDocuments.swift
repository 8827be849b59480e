import Foundation
import Strata

extension PetsModel {
    /// A small store of the pets model written by hand after `docs/formats/xml.md`; it holds
    /// exactly `image(identifier:)`.
    public static let xmlDocument = """
        <?xml version="1.0" standalone="yes"?>
        <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

        <database>
            <databaseInfo>
                <version>134481920</version>
                <UUID>PETS-STORE</UUID>
                <nextObjectID>106</nextObjectID>
                <nextPrimaryKey entity="ANIMAL">4</nextPrimaryKey>
                <nextPrimaryKey entity="PERSON">2</nextPrimaryKey>
                <metadata>
                    <plist version="1.0">
                        <dict>
                            <key>NSStoreUUID</key>
                            <string>PETS-STORE</string>
                            <key>n</key>
                            <integer>7</integer>
                            <key>note</key>
                            <string>hostile tests</string>
                        </dict>
                    </plist>
                </metadata>
            </databaseInfo>
            <object type="PERSON" id="z102" pk="1" version="1">
                <attribute name="age" type="int16">30</attribute>
                <attribute name="name" type="string">Ann</attribute>
                <relationship name="pets" type="0/0" destination="ANIMAL" idrefs="z103 z104 z105"></relationship>
            </object>
            <object type="PET" id="z103" pk="1" version="1">
                <attribute name="name" type="string">Rex</attribute>
                <attribute name="vaccinated" type="bool">1</attribute>
                <relationship name="owner" type="1/1" destination="PERSON" idrefs="z102"></relationship>
            </object>
            <object type="PET" id="z104" pk="2" version="1">
                <attribute name="name" type="string">Tom</attribute>
                <relationship name="owner" type="1/1" destination="PERSON" idrefs="z102"></relationship>
            </object>
            <object type="FISH" id="z105" pk="3" version="1">
                <attribute name="fins" type="int32">5</attribute>
                <relationship name="owner" type="1/1" destination="PERSON" idrefs="z102"></relationship>
            </object>
        </database>

        """
}
